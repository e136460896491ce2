// A target that fails on purpose, for the driver's own tests: the input "throw" escapes with an
// exception, "hang" runs past any time limit, anything else is fine.
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "tests/fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string t = fuzz::text(data, size);
    if (t == "throw") throw std::logic_error("the self-test's crash");
    if (t == "hang")
        for (;;) ::usleep(1000);
    return 0;
}
