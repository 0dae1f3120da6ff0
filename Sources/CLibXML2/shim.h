#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with Foundation's
// own copy of ICU in one Swift module. Only the writer's functions are used,
// through opaque pointers (never the encoding handler's struct that ICU's
// fields are part of), so the ICU headers are left out.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlwriter.h>
