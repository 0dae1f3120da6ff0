// The RestaurantQueue iOS app's feed parser (seed 004: DataHelper.processResponse
// and processDict), ported line by line from Swift 2 to today's names, with the
// same decoding (encoding 8, Shift JIS), the same splits and the same force
// unwraps. It reads a feed on standard input and prints one line per party:
// id, name, size, arrival (Unix seconds, the app's -18000 undone) and
// readiness, tab-separated. Tests run it as a child process: a crash here is
// exactly what the app would do, and fails the test without killing the runner.
// Its force unwraps are the app's own, kept on purpose: they are what is tested.
import Foundation

func processResponse(data: Data) -> [Int: [String]]? {
    var reservations = [Int: [String]]()
    guard let responseString = String(data: data, encoding: String.Encoding(rawValue: 8)) else { return nil }
    let lines = responseString.components(separatedBy: "\n")
    for line in lines {
        var id: Int?
        let splitLine = line.components(separatedBy: ",")
        for component in splitLine {
            if component.contains("id:") && !component.contains("isReady") {
                let idString = component.components(separatedBy: ":")[1]
                id = Int(idString)
                reservations[id!] = [String]()
            } else if component.contains("time") {
                let timeArray = component.components(separatedBy: ":")
                let time = "\(timeArray[1]):\(timeArray[2]):\(timeArray[3])"
                reservations[id!]?.append(time)
            } else if component.contains(":") {
                let element = component.components(separatedBy: ":")[1]
                reservations[id!]?.append(element)
            }
        }
    }
    return reservations
}

struct Parsed { let id: Int; let name: String; let size: Int; let arrival: Date; let isReady: Bool }

func processDict(dict: [Int: [String]]) -> [Parsed] {
    var reservations = [Parsed]()
    for (key, value) in dict {
        let name = value[0]
        let size = Int(value[1])
        let stripedTime = value[2].components(separatedBy: " ")
        let formatter = DateFormatter()
        let combinedTime = stripedTime[0] + " " + stripedTime[1]
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let ready = value[3] == "true"
        // the server calculates the time GMT, this corrects for that
        let arrivalTime = formatter.date(from: combinedTime)?.addingTimeInterval(-18000)
        reservations.append(Parsed(id: key, name: name, size: size!, arrival: arrivalTime!, isReady: ready))
    }
    return reservations
}

let data = FileHandle.standardInput.readDataToEndOfFile()
guard let dict = processResponse(data: data) else {
    print("DECODE-FAILED")
    exit(0)
}
for party in processDict(dict: dict).sorted(by: { $0.id < $1.id }) {
    print("\(party.id)\t\(party.name)\t\(party.size)\t\(Int(party.arrival.timeIntervalSince1970) + 18000)\t\(party.isReady)")
}
