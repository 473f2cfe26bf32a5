// Only the declaration in include/CLibFuzzer.h matters: libFuzzer itself is linked by -sanitize=fuzzer.
