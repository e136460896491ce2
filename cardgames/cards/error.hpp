#pragma once
// The one exception type for bad input (cards, deals, presets, options, records). Commands catch
// it, print its message, which names the offending text and where it was, and exit with status 2.

#include <stdexcept>
#include <string>

namespace cardgames {

class InputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Adds a location ("deal", "preset hearts4.ini line 3", "record line 12") in front of a message.
[[noreturn]] inline void rethrow_with_context(const std::string& where, const InputError& e) {
    throw InputError(where + ": " + e.what());
}

}  // namespace cardgames
