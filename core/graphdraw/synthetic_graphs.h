// Generated graphs shaped like real networks (DenseNet's concat fan-in, ResNet's skips, a
// long chain with random skips) for the layout benchmark and tests, without model files.
#pragma once

#include "layered_layout.h"

#include <string>

namespace embark::graphdraw {

// DenseNet-121's topology (blocks of 6, 12, 24, 16 layers; each layer's input is the concat
// of every earlier feature in its block). chainPerLayer ops sit between a concat and the new
// feature: 6 (BN, Relu, Conv, BN, Relu, Conv) gives ~430 nodes, 14 gives ~900.
LayoutGraph denseNetLike(int chainPerLayer = 14);

// ResNet-50's bottleneck blocks (3, 4, 6, 3) with projection shortcuts; ~180 nodes.
LayoutGraph resNet50Like();

// A chain of `length` nodes plus deterministic pseudo-random forward skips.
LayoutGraph chainWithSkips(int length = 1000, unsigned seed = 7);

// Graphviz text of a layout graph (for comparing with `dot`).
std::string toDot(const LayoutGraph& graph);

} // namespace embark::graphdraw
