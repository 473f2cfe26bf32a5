#ifndef SYNCD_CLIBFUZZER_H
#define SYNCD_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program that has a main of its own (SwiftPM gives every executable one).
/// Linked in by -sanitize=fuzzer; see Fuzz/run.sh. https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
