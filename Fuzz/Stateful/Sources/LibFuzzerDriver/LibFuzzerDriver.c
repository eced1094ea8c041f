// Only the declaration in include/LibFuzzerDriver.h: libFuzzer (linked by
// -sanitize=fuzzer) defines LLVMFuzzerRunDriver.
#include "LibFuzzerDriver.h"
