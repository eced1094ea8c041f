// libFuzzer's entry for programs that have their own main (SwiftPM names an executable's
// main `<Module>_main`, so libFuzzer's main is not used): runs the fuzzer with argc/argv and
// the callback that takes one input.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
