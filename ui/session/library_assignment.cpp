#include "library_assignment.h"

#include "targets/kernel_library.h"

#include <QCoreApplication>

namespace embark::ui {

namespace {

// The rule names appear in the properties panel, so they are translated.
class LibraryAssignment {
    Q_DECLARE_TR_FUNCTIONS(LibraryAssignment)
};

// The library an override names if it runs the node; otherwise the reason it cannot.
QString supportProblem(const std::string& libraryId, const ir::Node& node) {
    const targets::KernelLibrary* lib = targets::findKernelLibrary(libraryId);
    if (!lib) return LibraryAssignment::tr("unknown kernel library '%1'").arg(QString::fromStdString(libraryId));
    return QString::fromStdString(lib->whyUnsupported(node));
}

} // namespace

LibraryAssignments assignLibraries(const ir::Graph& fused, const AssignmentRequest& request) {
    LibraryAssignments out;
    for (const ir::Node* node : fused.nodes()) {
        const std::string op(ir::opName(node->op));
        NodeLibrary chosen;
        auto tryLibrary = [&](const std::string& lib, const QString& rule) {
            const QString problem = supportProblem(lib, *node);
            if (!problem.isEmpty()) {
                chosen.why += LibraryAssignment::tr("%1 (%2) refused: %3. ").arg(rule, QString::fromStdString(lib), problem);
                return false;
            }
            chosen.library = QString::fromStdString(lib);
            chosen.why += rule;
            return true;
        };
        bool done = false;
        if (auto it = request.nodeOverrides.find(node->name); it != request.nodeOverrides.end())
            done = tryLibrary(it->second, LibraryAssignment::tr("node override"));
        if (!done)
            if (auto it = request.opOverrides.find(op); it != request.opOverrides.end())
                done = tryLibrary(it->second, LibraryAssignment::tr("op override"));
        if (!done) done = tryLibrary(request.library, LibraryAssignment::tr("chosen library"));
        if (!done) {
            chosen.library = QStringLiteral("portable");
            chosen.why += LibraryAssignment::tr("portable fallback");
        }
        out[node->name] = chosen;
    }
    return out;
}

} // namespace embark::ui
