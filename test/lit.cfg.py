# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "TILEC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.tilec_obj_root
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["tilec", "tilec-opt", "tilec-cubin-info"], [config.tilec_tools_dir])

# Tests that run ptxas (the cubin stage) need the CUDA toolkit.
cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
if shutil.which("ptxas") or os.path.exists(os.path.join(cuda, "bin", "ptxas")):
    config.available_features.add("ptxas")
    llvm_config.with_environment("PATH", os.path.join(cuda, "bin"),
                                 append_path=True)
