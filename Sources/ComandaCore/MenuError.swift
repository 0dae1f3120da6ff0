/// What can be wrong with a menu file; each case names where.
public enum MenuError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not JSON, or not an array.
    case notAnArray(String)
    /// Entry `index` (0-based) has a problem with `field`.
    case invalidEntry(index: Int, nombre: String?, field: String, problem: String)
    /// Two entries share a name (compared ignoring case).
    case duplicateName(index: Int, nombre: String, firstIndex: Int)

    /// One line for a person.
    public var description: String {
        switch self {
        case .notAnArray(let why):
            return "the menu file must be a JSON array of dishes: \(why)"
        case .invalidEntry(let index, let nombre, let field, let problem):
            let name = nombre.map { " (\($0))" } ?? ""
            return "entry \(index + 1)\(name), field \(field): \(problem)"
        case .duplicateName(let index, let nombre, let firstIndex):
            return "entry \(index + 1), field nombre: \"\(nombre)\" is already entry \(firstIndex + 1)"
        }
    }
}
