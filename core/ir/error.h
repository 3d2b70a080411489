// Errors a user can cause, carried as values: a kind that maps to the CLI exit status and a
// message that names the file, node, op or host involved and what to do about it.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace embark {

// The numeric values are the documented exit statuses of every embark-cli command.
enum class ErrorKind : int {
    Mismatch = 1,     // outputs outside the tolerance
    Usage = 2,        // bad command line or option
    Unsupported = 3,  // op, attribute or dtype the model needs that Embark lacks
    InvalidInput = 4, // invalid model or input file
    External = 5,     // toolchain, board, network, file system
};

struct Error {
    ErrorKind kind = ErrorKind::InvalidInput;
    std::string message;

    int exitCode() const { return static_cast<int>(kind); }
};

inline Error makeError(ErrorKind kind, std::string message) { return Error{kind, std::move(message)}; }

// A minimal expected<T, Error> (std::expected is C++23).
template <typename T>
class [[nodiscard]] Expected {
public:
    Expected(T value) : m_v(std::move(value)) {}
    Expected(Error error) : m_v(std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        assert(ok());
        return std::get<0>(m_v);
    }
    const T& value() const& {
        assert(ok());
        return std::get<0>(m_v);
    }
    T&& value() && {
        assert(ok());
        return std::get<0>(std::move(m_v));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const {
        assert(!ok());
        return std::get<1>(m_v);
    }

private:
    std::variant<T, Error> m_v;
};

// Expected<void>: success or an Error.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : m_error(std::move(error)), m_failed(true) {}
    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error& error() const {
        assert(m_failed);
        return m_error;
    }

private:
    Error m_error;
    bool m_failed = false;
};

} // namespace embark

// Propagate an error from an Expected<T> or Status in a function returning Expected/Status.
#define EMBARK_TRY(expr)                                                                                               \
  do {                                                                                                                 \
    auto&& embark_try_r_ = (expr);                                                                                     \
    if (!embark_try_r_.ok()) return embark_try_r_.error();                                                             \
  } while (0)
