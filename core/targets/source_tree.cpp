#include "source_tree.h"

// The one source that reads this build's absolute paths (core/CMakeLists.txt compiles it outside
// the unity batches): a file that named them would miss ccache in every other clone.
#include "embark_build_paths.h"

namespace embark::targets {

QString sourceTree() {
    const QString env = qEnvironmentVariable("EMBARK_SOURCE_DIR");
    return env.isEmpty() ? QStringLiteral(EMBARK_SOURCE_DIR) : env;
}

} // namespace embark::targets
