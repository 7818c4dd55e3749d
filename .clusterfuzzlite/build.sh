#!/bin/bash -eu
# Builds every cargo-fuzz target of fuzz/ and hands the binaries and their
# seed corpora (corpora/fuzz/<target>) to ClusterFuzzLite.
cd "$SRC/phicc/fuzz"
cargo fuzz build -O
for target in $(cargo fuzz list); do
    cp "target/x86_64-unknown-linux-gnu/release/$target" "$OUT/"
    if [ -d "../corpora/fuzz/$target" ]; then
        (cd "../corpora/fuzz/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    fi
done
