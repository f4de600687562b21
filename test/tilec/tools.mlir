// The small tools say what they are and how to call them.
// RUN: tilec-opt --version | FileCheck %s --check-prefix=OPT
// RUN: tilec-cubin-info --help | FileCheck %s --check-prefix=HELP
// RUN: tilec-cubin-info --version | FileCheck %s --check-prefix=VERSION
// RUN: not tilec-cubin-info --bogus 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tilec-cubin-info 2>&1 | FileCheck %s --check-prefix=HELP
// RUN: tilec --help-hidden | FileCheck %s --check-prefix=HIDDEN
// RUN: tilec --help | not grep -e "Print IR after each pass"

// OPT: tilec 0.1.0 (MLIR 22.
// HELP: usage: tilec-cubin-info FILE.cubin...
// HELP: --help
// VERSION: tilec-cubin-info (tilec 0.1.0)
// BAD: tilec-cubin-info: error: unknown option '--bogus'
// BAD-NEXT: usage: tilec-cubin-info
// The MLIR flags tilec's overview mentions: in --help-hidden, not --help.
// HIDDEN-DAG: --mlir-print-ir-after-all - Print IR after each pass
// HIDDEN-DAG: --mlir-timing - Display execution times
