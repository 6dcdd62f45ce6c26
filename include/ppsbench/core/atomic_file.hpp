// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace ppsbench::core {

// Replaces the file `path` names (core::write_target: through a symlink, the file it points
// to) with `text` in one step: a temporary file in the same folder, fsync, rename over the
// file, fsync of the folder. A reader (node_exporter, a browser, CI) sees the old file or the
// new one, never half of one, and after a power cut the folder holds one of the two; a failed
// write leaves the old file as it was and no temporary behind. The new file gets 0666 less the
// umask, like any file the program creates. Every output written whole goes through here; a
// capture is streamed instead (store::CaptureWriter). Throws core::InputError naming `use`
// (the option) and the path.
void write_file_atomically(const std::string& path, std::string_view text, std::string_view use);

}  // namespace ppsbench::core
