import ComandaCore
import ComandaHTTP
import ComandaResources
import Foundation

/// Finds the server's files for a binary that may run from any folder: a
/// default path (`Public`, `Config/comanda.json`, `Config/platos.json`,
/// `docs/openapi.json`) is looked for in the working directory, then beside
/// the executable (where the Docker image puts them), then the copy built
/// into the binary is used. A path the operator set is taken as given.
public struct ResourceLocator: Sendable {
    /// The folders searched, in order.
    public let directories: [String]

    /// Searches `workingDirectory`, then the executable's folder.
    public init(workingDirectory: String = FileManager.default.currentDirectoryPath,
                executableDirectory: String? = ResourceLocator.executableDirectory()) {
        var dirs = [workingDirectory]
        if let executableDirectory, executableDirectory != workingDirectory { dirs.append(executableDirectory) }
        directories = dirs
    }

    /// The folder of the running executable (`/proc/self/exe`), if it can be read.
    public static func executableDirectory() -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return (path as NSString).deletingLastPathComponent
    }

    /// The first existing `relative` file (or folder) among the directories, as a path.
    public func find(_ relative: String, folder: Bool = false) -> String? {
        for dir in directories {
            let path = dir + "/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue == folder {
                return path
            }
        }
        return nil
    }
}

/// Where the pages come from.
public enum PagesSource: Sendable, Equatable {
    /// A folder on disk.
    case folder(String)
    /// The pages built into the binary.
    case builtIn
    /// No pages: the folder the operator set does not exist (the API is still served).
    case none(String)
}

/// Where the house menu comes from on a first start.
public enum MenuSource: Sendable, Equatable {
    /// A file on disk.
    case file(String)
    /// The menu built into the binary.
    case builtIn
}

extension AppConfiguration {
    /// The default of `public`, looked for rather than taken as given.
    static let defaultPublicFolder = "Public"
    /// The default of `platos`, looked for rather than taken as given.
    static let defaultPlatosFile = "Config/platos.json"
    /// The default configuration file, looked for rather than taken as given.
    public static let defaultConfigFile = "Config/comanda.json"

    /// The pages: the set folder; or, for the default, `Public` found by `locator`, else the built-in ones.
    public func pages(_ locator: ResourceLocator = ResourceLocator()) -> PagesSource {
        if publicFolder == Self.defaultPublicFolder {
            return locator.find(publicFolder, folder: true).map(PagesSource.folder) ?? .builtIn
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: publicFolder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .none("public folder \(publicFolder) does not exist; serving the API without pages")
        }
        return .folder(publicFolder)
    }

    /// The menu for a first start: the set file; or, for the default, the file found by `locator`, else the built-in one.
    public func menu(_ locator: ResourceLocator = ResourceLocator()) -> MenuSource {
        guard platosFile == Self.defaultPlatosFile else { return .file(platosFile) }
        return locator.find(platosFile).map(MenuSource.file) ?? .builtIn
    }
}

extension PagesSource {
    /// The static files to serve, or nil for none.
    var staticFiles: StaticFiles? {
        switch self {
        case .folder(let path): return StaticFiles(folder: path)
        case .none: return nil
        case .builtIn:
            var files: [String: StaticFiles.MemoryFile] = [:]
            for (name, body) in BuiltIn.publicFiles {
                var hash = FNV1a()
                hash.add(body)
                files[name] = StaticFiles.MemoryFile(body: body, etag: "\"b-" + hash.hex + "\"")
            }
            return StaticFiles(files: files)
        }
    }
}
