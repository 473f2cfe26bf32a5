#if FUZZING
    /// Fuzz/run.sh builds with `-sanitize=fuzzer`, which links libFuzzer into every executable it builds, this build tool
    /// too, and libFuzzer needs this symbol. The tool's own main still runs: it never fuzzes.
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzNothing(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { 0 }
#endif
