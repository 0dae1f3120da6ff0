/// The pages, the configuration and the house menu, built into the binary
/// (SwiftPM `embedInCode` resources: `Public/` and `Config/`, through this
/// folder's symlinks), so
/// `comanda serve` runs from any folder. Files found on disk win over these.
public enum BuiltIn {
    /// `Public/`'s files by name. A test holds this list to the folder, both ways.
    public static let publicFiles: [String: [UInt8]] = [
        "index.html": PackageResources.index_html,
        "acerca.html": PackageResources.acerca_html,
        "carta.js": PackageResources.carta_js,
        "carta.css": PackageResources.carta_css,
        "favicon.ico": PackageResources.favicon_ico,
        "inicio.css": PackageResources.inicio_css,
        "sala.html": PackageResources.sala_html,
        "sala.css": PackageResources.sala_css,
        "sala.js": PackageResources.sala_js,
        "floor.js": PackageResources.floor_js,
        "camarero.html": PackageResources.camarero_html,
        "camarero.css": PackageResources.camarero_css,
        "camarero.js": PackageResources.camarero_js,
        "display.html": PackageResources.display_html,
        "display.css": PackageResources.display_css,
        "display.js": PackageResources.display_js,
        "staff.js": PackageResources.staff_js,
        "staff.css": PackageResources.staff_css,
        "cocina.html": PackageResources.cocina_html,
        "cocina.css": PackageResources.cocina_css,
        "cocina.js": PackageResources.cocina_js,
        "gestion.html": PackageResources.gestion_html,
        "gestion.css": PackageResources.gestion_css,
        "gestion.js": PackageResources.gestion_js,
        "anfitrion.html": PackageResources.anfitrion_html,
        "anfitrion.css": PackageResources.anfitrion_css,
        "anfitrion.js": PackageResources.anfitrion_js,
        "espera.html": PackageResources.espera_html,
        "espera.css": PackageResources.espera_css,
        "espera.js": PackageResources.espera_js,
        "mesa.html": PackageResources.mesa_html,
        "mesa.js": PackageResources.mesa_js,
    ]
    /// `Config/comanda.json`.
    public static var configuration: [UInt8] { PackageResources.comanda_json }
    /// `Config/platos.json`, the house menu.
    public static var platos: [UInt8] { PackageResources.platos_json }
}
