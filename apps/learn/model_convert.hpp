#pragma once
// `cardgames learn convert` (docs/guide/learning.md): a linear model file of version 1 (the text
// format the first fits wrote) rewritten as version 2, the versioned model file the fits write
// now (sampling/model_file.hpp), with the same weights to the bit, so that it plays the same.

#include <cstddef>
#include <string>

namespace apps {

struct ConvertReport {
    std::string in, out, kind, form;
    int from_version = 0;
    std::size_t weights = 0;
    std::string text() const;  // what `cardgames learn convert` prints
};

// Reads the linear model at `in` (either version; checked as this program's model of its kind),
// writes it to `out` as version 2 (`out` may be `in`), reads that back and checks that it holds
// the same model. A model without a `seeds` field gets the seeds its data commands name.
ConvertReport convert_model(const std::string& in, const std::string& out);

}  // namespace apps
