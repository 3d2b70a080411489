# cmake -DHEADER=<dir>/cmake_pch.hxx -DOUTPUT=<dir>/cmake_pch.hxx.gch.sum -P scripts/pch_checksum.cmake
#
# Writes the checksum ccache hashes instead of a precompiled header's own bytes
# (CCACHE_SLOPPINESS=pch_external_checksum, scripts/build.sh): the SHA-256 of the header's text,
# the list of headers it includes. The .gch's bytes name the build folder, so a source compiled
# with it would miss the cache in every other clone; the text does not. The rest is in ccache's
# hash of each use: the compiler, the flags (which GCC checks against the .gch, -Winvalid-pch),
# and the contents of the headers the source reads.
file(SHA256 "${HEADER}" sum)
file(WRITE "${OUTPUT}.tmp" "${sum}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
