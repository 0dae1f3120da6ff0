#!/usr/bin/env bash
# aeat-xsd.sh DIR: fetches the AEAT's VERI*FACTU schemas (SuministroLR.xsd and
# the files it imports) from the PyPI wheel huella 0.2.0, where they are kept
# unmodified, checks each file's SHA-256 against the wheel's SOURCES.md, and
# writes an XML catalog that maps the W3C signature schema's address to its
# local copy (so xmllint never touches the network). Prints the environment
# the tests read: COMANDA_AEAT_XSD (the folder) and XML_CATALOG_FILES.
# The schemas are data: fetched here, never committed.
set -euo pipefail
DIR=${1:?usage: aeat-xsd.sh DIR}
mkdir -p "$DIR"
if [ ! -f "$DIR/huella/specs/v1_0/SuministroLR.xsd" ]; then
  python3 -m pip download -q huella==0.2.0 --no-deps --only-binary=:all: --python-version 3.13 -d "$DIR" >&2
  python3 - "$DIR" <<'PY'
import glob, sys, zipfile
folder = sys.argv[1]
with zipfile.ZipFile(glob.glob(folder + "/huella-0.2.0-*.whl")[0]) as wheel:
    for name in wheel.namelist():
        if name.startswith("huella/specs/v1_0/"):
            wheel.extract(name, folder)
PY
fi
SPECS="$DIR/huella/specs/v1_0"
python3 - "$SPECS" <<'PY'
import hashlib, os, re, sys
specs = sys.argv[1]
listed = re.findall(r"^\| `([A-Za-z-]+\.(?:xsd|wsdl))` \|.*`([0-9a-f]{64})` \|$", open(os.path.join(specs, "SOURCES.md")).read(), re.M)
if len(listed) < 9:
    sys.exit(f"aeat-xsd: SOURCES.md lists {len(listed)} files, not the 9 expected")
for name, digest in listed:
    with open(os.path.join(specs, name), "rb") as f:
        if hashlib.sha256(f.read()).hexdigest() != digest:
            sys.exit(f"aeat-xsd: {name} is not the file SOURCES.md names (SHA-256)")
PY
cat > "$DIR/catalog.xml" <<XML
<?xml version="1.0"?>
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <system systemId="http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd" uri="file://$SPECS/xmldsig-core-schema.xsd"/>
  <uri name="http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd" uri="file://$SPECS/xmldsig-core-schema.xsd"/>
</catalog>
XML
echo "export COMANDA_AEAT_XSD=$SPECS XML_CATALOG_FILES=$DIR/catalog.xml"
