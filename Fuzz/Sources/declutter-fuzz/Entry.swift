import Foundation

/// libFuzzer's entry point: one input, run through the target `DECLUTTER_FUZZ_TARGET` names.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let target = FuzzTarget.selected else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("DECLUTTER_FUZZ_TARGET must name one of: \(names)\n".utf8))
        exit(2)
    }
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    target.run(data)
    return 0
}
