import ComandaCore
import ComandaResources
import ComandaStore
import Foundation

/// Loading `platos.json` into the database: on the first start, and on purpose.
public enum MenuImport {
    /// A menu file that could not be read or validated, or a database failure.
    public struct Failure: Error, CustomStringConvertible {
        /// One line naming the file, the entry and the field.
        public let description: String
    }

    /// Reads and validates a file; nothing is written.
    public static func read(file: String) throws(Failure) -> [DatosPlato] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Failure(description: "no se puede leer el archivo de la carta \(file)")
        }
        do { return try MenuFile.parse(data) } catch {
            throw Failure(description: "\(file): \(error.description); no se ha importado nada")
        }
    }

    /// Imports `file` (upsert by `nombre`, one transaction).
    public static func importFile(_ file: String, into database: AppDatabase) throws(Failure) -> ImportResult {
        let entries = try read(file: file)
        do { return try database.importPlatos(entries, onlyFirstTime: false) } catch {
            throw Failure(description: "\(file): la base de datos no aceptó la importación (\(error.description)); no se ha importado nada")
        }
    }

    /// On a database that never had a menu, imports the menu from `source`;
    /// otherwise does nothing, even if the file changed. A missing file on a
    /// first start leaves the menu empty (returns nil) rather than stopping the server.
    public static func importOnFirstStart(_ source: MenuSource, into database: AppDatabase) throws(Failure) -> ImportResult? {
        let already: Bool
        do { already = try database.platosImportados() } catch { throw Failure(description: error.description) }
        if already { return .alreadyImported }
        let entries: [DatosPlato]
        let label: String
        switch source {
        case .file(let file):
            guard FileManager.default.fileExists(atPath: file) else { return nil }
            entries = try read(file: file)
            label = file
        case .builtIn:
            label = "the built-in Config/platos.json"
            do { entries = try MenuFile.parse(Data(BuiltIn.platos)) } catch {
                throw Failure(description: "\(label): \(error.description); no se ha importado nada")
            }
        }
        do { return try database.importPlatos(entries, onlyFirstTime: true) } catch {
            throw Failure(description: "\(label): la base de datos no aceptó la importación (\(error.description)); no se ha importado nada")
        }
    }
}
