// Where Embark's source tree is at run time: the kernel runtime, the boards, the toolchain files
// and the sample model are read from it.
#pragma once

#include <QString>

namespace embark::targets {

// $EMBARK_SOURCE_DIR when set, else the folder this build was configured from.
QString sourceTree();

} // namespace embark::targets
