# signalpath — build, test and try it out. On a fresh Debian machine with the Swift toolchain,
# `make demo` and `make test` install what they need (apt-get) and do the rest.

PREFIX  ?= /usr/local
SWIFT   ?= swift
RELEASE := .build/release/signalpath

# Debian packages: the C libraries signalpath links (libsndfile, FFTW, ALSA) or loads on first use (FFmpeg's, whose
# headers the build needs; TagLib, through replaygain's shim), and the tools the tests use as independent
# encoders and references (sox, ffmpeg, espeak-ng for speech; flac, lame, vorbis-tools, opus-tools and
# loudgain for replaygain), libsoxr for compare, libcrypto and Chromaprint (fpcalc its reference) for
# identity, and groff to render the man pages.
APT_PACKAGES := pkg-config libsndfile1-dev libfftw3-dev libasound2-dev libcairo2-dev zlib1g-dev fonts-dejavu-core libavformat-dev libavcodec-dev libavutil-dev sox ffmpeg espeak-ng alsa-utils groff-base librsvg2-bin poppler-utils libsqlite3-dev libsoxr-dev libssl-dev libchromaprint-dev libchromaprint-tools parallel fluidsynth fluid-soundfont-gm libtag1-dev flac lame vorbis-tools opus-tools loudgain
# Python modules the tests use as references (numpy and scipy come with the machine's Python); Pillow
# decodes the charts' PNGs. `package:module` where pip's name is not the module's.
PIP_PACKAGES := pyloudnorm soundfile pillow:PIL duckdb mido mutagen
# Only for `make bench`.
BENCH_APT_PACKAGES := hyperfine time valgrind binutils

# Run apt-get as root, or through sudo when there is one.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: test-slurm setup build test lint format check-layers check-diaries check-budgets demo install man clean samples bench bench-setup bench-data fuzz sanitize help docs-images wisdom

help:
	@echo "make demo     build and run signalpath on the bundled samples"
	@echo "make test     run the test suite"
	@echo "make build    release build (.build/release/signalpath)"
	@echo "make lint     the formatter's check (swift format, .swift-format), the layering check the comment-diary check and the size budgets"
	@echo "make format   reformat the sources in place"
	@echo "make install  install into PREFIX=$(PREFIX), with man pages and shell completions"
	@echo "make man      the man pages, one per command, in .build/man"
	@echo "make test-slurm  scan's Slurm array recipe on a one-node cluster started here (root; not part of make test)"
	@echo "make bench    benchmarks against sox, ffmpeg and scipy; writes BENCHMARKS.md (not part of make test)"
	@echo "make fuzz     libFuzzer over every command's pipeline, the FFmpeg backend and the option parsers (FUZZ_SECONDS each, default 300)"
	@echo "make sanitize the test suite under AddressSanitizer and ThreadSanitizer"
	@echo "make samples  regenerate Samples/ (needs python3 with numpy, scipy, soundfile)"
	@echo "make docs-images  the README's chart images (docs/images/*.png) from the bundled samples"
	@echo "make wisdom   regenerate FFTW's built-in wisdom (Sources/SignalPathKit/Spectral/FFTPlan+Wisdom.swift; ~20 s)"
	@echo "make clean    remove build products"

# Installs only what is missing, and says nothing when everything is there.
define apt_install
	@missing=""; for package in $(1); do \
	  dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q "ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

setup:
	$(call apt_install,$(APT_PACKAGES))
	@for entry in $(PIP_PACKAGES); do \
	  package=$${entry%%:*}; module=$${entry##*:}; \
	  python3 -c "import $$module" 2>/dev/null || { echo "Installing Python module $$package"; python3 -m pip install --quiet $$package; }; \
	done

# The Swift runtime linked in: each start saves the dynamic loading and relocation of its
# libraries. Every module (ArgumentParser's too) reaches the metadata of concrete generic types
# through accessor functions the compiler writes, not through mangled names the runtime demangles
# at first use, each a scan of every conformance record (docs/DECISIONS.md#direct-type-metadata).
DIRECT_METADATA := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib $(DIRECT_METADATA)
# signalpath and replaygain's TagLib shim (TagLibrary.swift), which signalpath opens from beside
# itself or from PREFIX/lib/signalpath.
build: setup
	$(RELEASE_BUILD) --product signalpath
	$(RELEASE_BUILD) --product SignalPathTagLib

# What the formatter checks and rewrites: every Swift file of the three packages.
SWIFT_SOURCES := Package.swift Sources Tests Fuzz/Package.swift Fuzz/Sources Benchmarks/Package.swift Benchmarks/Sources

lint: check-layers check-diaries check-budgets
	$(SWIFT) format lint --strict --recursive $(SWIFT_SOURCES)

# Files at most 450 lines outside the C doors, functions at most 80 lines: both enforced.
check-budgets:
	python3 scripts/check-budgets.py --strict
	python3 scripts/test_check_budgets.py

format:
	$(SWIFT) format format --in-place --recursive $(SWIFT_SOURCES)

# Stage code (IO, Decoding, Spectral, Analysis, …) must not name presentation code (Output, Rendering, Terminal, Live),
# and neither the layers nor a layer's folders (Analysis/Levels, Analysis/Loudness, …) may depend on each other in a circle.
check-layers:
	python3 scripts/check-layers.py
	python3 scripts/test_check_layers.py

# The suites `make test` runs a second time with SIGNALPATH_BASELINE_KERNELS=1.
BASELINE_SUITES := SignalPathKitTests\.(ProcessorFeaturesTests|DecodingTests|LevelTests|LoudnessTests|TruePeakTests|AnalysisWorkerTests|StereoImageTests|SegmentTransformTests|FFTPlanTests)|SignalPathCLITests\.(AnalyzeCLITests|TruePeakCLITests|SpectrumCLITests|LoudnessCLITests)

# Comments under Sources/ say why; measured figures live in docs/DECISIONS.md (the checker's own
# tests first: it must find a planted diary and pass clean code).
check-diaries:
	python3 scripts/check-diaries-test.py
	python3 scripts/check-diaries.py

# The man page test runs the manual generator on the debug build: `make man` builds it first.
# The library optimised in the tests' debug build (Package.swift says why and what it saves).
test: export SIGNALPATH_OPTIMIZED_TESTS = 1
test: setup lint
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory man MAN_CONFIG=debug
	# The authenticity tests' corpus (~13 s on 2 cores), made before the suites start so that it
	# does not crowd the timing-sensitive ones (the test finds it made and goes on).
	python3 Tests/Reference/authenticity_corpus.py --out .build/authenticity-corpus-small --size small
	$(SWIFT) test --skip-build
	# Again on the baseline kernels, as a processor without AVX2 runs them (docs/PLATFORMS.md): the
	# kernels' unit tests and the CLI tests whose outputs are checked against reference values.
	SIGNALPATH_BASELINE_KERNELS=1 $(SWIFT) test --skip-build --filter '$(BASELINE_SUITES)'

# scan's Slurm recipe (docs/SCAN.md) on a real cluster: slurmctld and slurmd started on this machine
# with munge (needs root: slurmd runs the jobs), a generated archive scanned by an array of 4 tasks
# and merged by a dependent job, compared row for row with one scan. Not in `make test`: CI may
# lack root, and starting daemons is not a unit test's business.
SLURM_PACKAGES := slurm-wlm munge
test-slurm: build
	$(call apt_install,$(SLURM_PACKAGES))
	scripts/slurm/test.sh $(RELEASE) .build/slurm-test

demo: build
	@echo "\$$ signalpath info Samples/chord-a-major-44k1-stereo.ogg"
	@$(RELEASE) info Samples/chord-a-major-44k1-stereo.ogg
	@echo
	@echo "\$$ signalpath analyze Samples/chord-a-major-44k1-stereo.ogg --format text"
	@$(RELEASE) analyze Samples/chord-a-major-44k1-stereo.ogg --format text
	@echo
	@echo "\$$ signalpath spectrum Samples/chord-a-major-44k1-stereo.ogg --range 0.5s..2.5s --format plot"
	@$(RELEASE) spectrum Samples/chord-a-major-44k1-stereo.ogg --range 0.5s..2.5s --format plot --height 20
	@echo
	@echo "\$$ signalpath spectrogram Samples/chirp-log-20-20k-48k-s24.flac --format plot"
	@$(RELEASE) spectrogram Samples/chirp-log-20-20k-48k-s24.flac --format plot --height 16
	@echo
	@echo "\$$ signalpath analyze Samples/*.wav --format csv | cut -d, -f1,3,6,8,9,24"
	@$(RELEASE) analyze Samples/*.wav --format csv | cut -d, -f1,3,6,8,9,24

# Man pages: swift-argument-parser's manual generator. Its plugin (which works offline: the package
# is checked out) builds the products in MAN_CONFIG and the generator (always a debug build, in
# .build/debug); scripts/manual.py then runs the generator on the binary and repairs what it loses
# (non-ASCII characters, paragraphs, example blocks).
# The debug build's --help is the release build's; the manual's plugin, given the release
# configuration, relinked the release binary without the static runtime that `build` links in.
MAN_CONFIG ?= debug
MAN_DIR := .build/man
man:
	$(SWIFT) package plugin generate-manual --configuration $(MAN_CONFIG) >/dev/null
	rm -rf $(MAN_DIR)
	python3 scripts/manual.py .build/debug/generate-manual-tool .build/$(MAN_CONFIG)/signalpath $(MAN_DIR) >/dev/null

install: build man
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 $(RELEASE) "$(DESTDIR)$(PREFIX)/bin/signalpath"
	install -D -m 644 .build/release/libSignalPathTagLib.so "$(DESTDIR)$(PREFIX)/lib/signalpath/libSignalPathTagLib.so"
	install -d "$(DESTDIR)$(PREFIX)/share/man/man1"
	install -m 644 $(MAN_DIR)/*.1 "$(DESTDIR)$(PREFIX)/share/man/man1/"
	install -d "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
	           "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
	           "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	$(RELEASE) --generate-completion-script bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/signalpath"
	$(RELEASE) --generate-completion-script zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_signalpath"
	$(RELEASE) --generate-completion-script fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/signalpath.fish"

# FFTW's plans for the common sizes, found with FFTW_PATIENT and compiled into signalpath as wisdom
# (FFTPlan.swift imports it before planning): rerun on the machine make bench runs on after FFTW
# changes; a foreign FFTW refuses the text and plans as before.
wisdom: setup
	mkdir -p .build
	cc -O2 scripts/fftw-wisdom.c -o .build/fftw-wisdom -l:libfftw3f.a -lm
	.build/fftw-wisdom > Sources/SignalPathKit/Spectral/FFTPlan+Wisdom.swift

clean:
	rm -rf .build .build-asan .build-tsan Benchmarks/.build Fuzz/.build

samples:
	@python3 -c "import soundfile" 2>/dev/null || python3 -m pip install --quiet soundfile
	python3 Samples/generate.py

# The README's pictures, drawn by the release build from the bundled samples (committed, so the
# README shows them; rerun after changing a chart).
DOCS_IMAGES := docs/images
docs-images: build
	mkdir -p $(DOCS_IMAGES)
	$(RELEASE) spectrum Samples/chord-a-major-44k1-stereo.ogg --range 0.5s..2.5s --size 960x540 --output $(DOCS_IMAGES)/spectrum.png --force
	$(RELEASE) spectrum Samples/pink-noise-seed1-48k-s16.wav --bands 1/3 --size 960x540 --output $(DOCS_IMAGES)/spectrum-bands.png --force
	$(RELEASE) spectrogram Samples/chirp-log-20-20k-48k-s24.flac --size 960x540 --output $(DOCS_IMAGES)/spectrogram.png --force
	$(RELEASE) loudness Samples/tone-step-500-1k-48k-s16.wav --target -10 --size 960x540 --theme dark --output $(DOCS_IMAGES)/loudness.png --force
	$(RELEASE) waveform Samples/chord-a-major-44k1-stereo.ogg --size 960x400 --output $(DOCS_IMAGES)/waveform.png --force

# Benchmarks (not part of `make test`). Data is made once in Benchmarks/Data (git-ignored): a 1 GiB
# file of random bytes and a 512 MiB WAV for the reader; the 60-minute WAV, a 10-minute 24-bit FLAC
# and a sparse 4.5 GB RF64 for the comparisons (Benchmarks/scripts/make_data.py). Then micro
# benchmarks (FFT rate, cache lookups, reader against pread — warm, and cold when root) and
# the suite against sox, ffmpeg and scipy, which writes BENCHMARKS.md.
BENCH_DATA := Benchmarks/Data
bench-setup: setup
	$(call apt_install,$(BENCH_APT_PACKAGES))
	@python3 -c "import soundfile, scipy, numpy" 2>/dev/null || python3 -m pip install --quiet soundfile scipy numpy

$(BENCH_DATA)/reader-1GiB.bin:
	mkdir -p $(BENCH_DATA)
	head -c 1073741824 /dev/urandom > $@

$(BENCH_DATA)/decode-512MiB.wav:
	mkdir -p $(BENCH_DATA)
	python3 -c "import struct,sys; n=1<<29; sys.stdout.buffer.write(b'RIFF'+struct.pack('<I',36+n)+b'WAVEfmt '+struct.pack('<IHHIIHH',16,1,2,48000,192000,4,16)+b'data'+struct.pack('<I',n))" > $@
	head -c 536870912 /dev/urandom >> $@

bench-data: bench-setup $(BENCH_DATA)/reader-1GiB.bin $(BENCH_DATA)/decode-512MiB.wav
	python3 Benchmarks/scripts/make_data.py $(BENCH_DATA)

# The manifest touched first: SwiftPM reuses its list of the path dependency's sources until the
# manifest changes, so a file added to SignalPathKit failed the benchmarks' build (twice).
# What is measured is a copy of the release binary, as `make install` makes one: the file the
# linker has just written starts slower than the same bytes read back into the page cache, and
# only a freshly built tree runs that file (docs/DECISIONS.md#bench-binary-copy).
BENCH_BINARY := .build/bench/signalpath
bench: bench-data build
	install -D -m 755 $(RELEASE) $(BENCH_BINARY)
	install -D -m 644 .build/release/libSignalPathTagLib.so $(dir $(BENCH_BINARY))libSignalPathTagLib.so
	touch Benchmarks/Package.swift
	cd Benchmarks && $(SWIFT) build -c release
	Benchmarks/.build/release/Micro fft-rate
	Benchmarks/.build/release/Micro cache-lookup
	python3 Benchmarks/scripts/run_bench.py $(BENCH_BINARY) Benchmarks/.build/release/Micro $(BENCH_DATA) BENCHMARKS.md

# Fuzzing (not part of `make test`): three libFuzzer targets with AddressSanitizer, in Fuzz/ (FuzzFFmpeg:
# the FFmpeg backend, seeded with small files ffmpeg encodes). The
# corpus grows in Fuzz/Corpus (git-ignored), seeded with the samples; crashes land in Fuzz/Crashes
# and become regression tests. `--sanitize fuzzer` alone instruments no Swift code for coverage
# (libFuzzer then finds "no interesting inputs"): `-Xswiftc -sanitize=fuzzer` does, in every
# module. Optimised (release keeps Swift's bounds and overflow checks): the audio target runs the
# whole pipeline per input, ~5× faster than in a debug build. Swift's backtracer is off: on a
# Swift runtime trap it reads the crashed thread's stack, which ASan reports in place of the trap.
FUZZ_SECONDS ?= 300
FUZZ_BUILD := Fuzz/.build/x86_64-unknown-linux-gnu/release
fuzz: setup
	cd Fuzz && $(SWIFT) build -c release --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library
	mkdir -p Fuzz/Corpus/audio Fuzz/Corpus/range Fuzz/Crashes
	cp -n Samples/*.wav Samples/*.rf64 Samples/*.flac Samples/*.ogg Samples/*.opus Fuzz/Corpus/audio/ 2>/dev/null || true
	printf '1.5s..3s' > Fuzz/Corpus/range/seed1; printf '00:01:02.5..00:01:05' > Fuzz/Corpus/range/seed2; printf 'kaiser:8.6' > Fuzz/Corpus/range/seed3
	SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp:print_suppressions=0 $(FUZZ_BUILD)/FuzzAudio -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
	  -dict=Fuzz/audio.dict -rss_limit_mb=2048 -artifact_prefix=Fuzz/Crashes/audio- -print_final_stats=1 Fuzz/Corpus/audio 2>&1 | grep -vE "resync|^Note:"
	mkdir -p Fuzz/Corpus/ffmpeg
	for spec in "m4a -c:a aac" "mp4 -c:a alac" "mka -c:a libopus" "webm -c:a libvorbis" "ac3 -c:a ac3" "wma -c:a wmav2" "aac -c:a aac -f adts"; do \
	  set -- $$spec; ext=$$1; shift; [ -f Fuzz/Corpus/ffmpeg/seed.$$ext ] || \
	  ffmpeg -v error -nostdin -f lavfi -i "sine=frequency=1000:duration=0.2:sample_rate=8000" "$$@" -y Fuzz/Corpus/ffmpeg/seed.$$ext; \
	done
	SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp:print_suppressions=0 $(FUZZ_BUILD)/FuzzFFmpeg -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
	  -dict=Fuzz/ffmpeg.dict -rss_limit_mb=2048 -artifact_prefix=Fuzz/Crashes/ffmpeg- -print_final_stats=1 Fuzz/Corpus/ffmpeg
	SWIFT_BACKTRACE=enable=no $(FUZZ_BUILD)/FuzzRange -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=Fuzz/Crashes/range- -print_final_stats=1 Fuzz/Corpus/range

# The test suite under the sanitizers (not part of `make test`: each run rebuilds everything).
# The replay/record suite is left out: it measures real-time pacing and key latency, which the
# sanitizers' slowdown (2× ASan, 5–15× TSan) would turn into false failures; its code paths run
# in the other suites (the live loops on a fake terminal and clock, frames, analysis, writer) and
# under the fuzzer.
# Leak detection is off here: every process the CLI tests start would run it at exit, its report
# replacing the one-line error and its exit code 23 the documented one; the fuzzer runs with it on.
# Time limits in the tests are scaled up (TEST_TIMEOUT_SCALE) for the sanitizers' slowdown.
SANITIZE_SKIP := --skip LiveCLITests
sanitize: setup
	$(SWIFT) build --build-tests --sanitize address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 TEST_TIMEOUT_SCALE=8 $(SWIFT) test --skip-build --sanitize address --scratch-path .build-asan $(SANITIZE_SKIP)
	$(SWIFT) build --build-tests --sanitize thread --scratch-path .build-tsan
	TEST_TIMEOUT_SCALE=15 $(SWIFT) test --skip-build --sanitize thread --scratch-path .build-tsan $(SANITIZE_SKIP)
