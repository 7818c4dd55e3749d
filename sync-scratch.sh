#!/bin/sh
# Copy this branch's own files into the scratch worktree that also has the verifier, text format and interpreter.
set -e
cd /work/wt/mem2reg
S=/tmp/m2r-scratch/compiler
rm -rf $S/src/ir/mem2reg $S/src/passes $S/tests/filetests
cp -r compiler/src/ir/mem2reg $S/src/ir/mem2reg
cp -r compiler/src/passes $S/src/passes
cp -r compiler/tests/filetests $S/tests/filetests
cp compiler/tests/filetests.rs $S/tests/filetests.rs
sed -i 's/^\/\/ pub mod pipeline;/pub mod pipeline;/; s/^\/\/ pub use pipeline/pub use pipeline/' $S/src/passes/mod.rs
