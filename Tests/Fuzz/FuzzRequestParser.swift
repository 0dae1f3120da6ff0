// libFuzzer target for the request parser (built by scripts/fuzz.sh with
// -sanitize=fuzzer,address together with the parser's own source files).
// For each input it checks what the parser promises: no crash, no hang, and
// the same answer whether the bytes arrive all at once or in chunks; the
// decoded path and query must not crash either.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = HTTPLimits(maxRequestLineBytes: 256, maxHeaderBytes: 1024, maxBodyBytes: 4096)

    var whole = HTTPRequestParser(limits: limits)
    let once: Result<HTTPRequestParser.Step, HTTPParseError>
    do throws(HTTPParseError) { once = .success(try whole.parse(bytes)) } catch { once = .failure(error) }

    // Feed the same bytes in chunks of a size taken from the input.
    let chunk = max(1, Int(bytes.first ?? 1) % 17)
    var incremental = HTTPRequestParser(limits: limits)
    var chunked: Result<HTTPRequestParser.Step, HTTPParseError> = .success(.needMoreData)
    var end = 0
    while end < bytes.count {
        end = min(bytes.count, end + chunk)
        do throws(HTTPParseError) {
            let step = try incremental.parse(Array(bytes[0..<end]))
            chunked = .success(step)
            if step != .needMoreData { break }
        } catch {
            chunked = .failure(error)
            break
        }
    }
    if bytes.isEmpty { chunked = once }

    switch (once, chunked) {
    case (.success(let a), .success(let b)):
        if a != b { fatalError("whole and chunked parses differ: \(a) vs \(b)") }
        if case .complete(let request, let consumed) = a {
            if consumed > bytes.count || consumed <= 0 { fatalError("consumed \(consumed) of \(bytes.count)") }
            if request.body.count > limits.maxBodyBytes { fatalError("body over the limit") }
            _ = request.queryItems
            _ = request.keepAlive
            for segment in request.path.split(separator: "/") { _ = PercentDecoding.decode(segment) }
            _ = request.method.rawValue
        }
    case (.failure(let a), .failure(let b)):
        if a != b { fatalError("whole and chunked errors differ: \(a) vs \(b)") }
        _ = a.response
    default:
        fatalError("whole and chunked disagree: \(once) vs \(chunked)")
    }
    return 0
}
