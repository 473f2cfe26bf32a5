// syncd-fuzz TARGET [FILE|FOLDER …]: the fuzz targets of Fuzz/ (README "Fuzzing").
//
// Built normally, it replays files: each input given, or each file in a folder given, through one target, printing
// what fails; exit 1 if any did. Built with `-sanitize=fuzzer,address -DFUZZING` (Fuzz/run.sh), it is libFuzzer's
// driver for the target named by SYNCD_FUZZ_TARGET, and takes libFuzzer's arguments.
import FuzzTargets
import Glibc

#if FUZZING
    import CLibFuzzer

    private let target: FuzzTarget = {
        let name = getenv("SYNCD_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            fatalError("set SYNCD_FUZZ_TARGET to one of \(names); got \"\(name)\"")
        }
        return target
    }()

    // SwiftPM links every executable with its own main, so libFuzzer's is not used: its driver is called from ours.
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        do {
            try target.run(UnsafeRawBufferPointer(start: data, count: size))
        } catch {
            fatalError("\(target.rawValue): \(error)")
        }
        return 0
    }

    _ = target
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })
#else
    exit(Replayer.main(Array(CommandLine.arguments.dropFirst())))
#endif
