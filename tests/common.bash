# shellcheck shell=bash disable=SC2154
# Loaded by every suite: bats-support, bats-assert, bin/ on PATH.
bats_load_library bats-support
bats_load_library bats-assert
ZH_TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
PATH="$ZH_TOP/bin:$PATH"
TESTDATA="$ZH_TOP/testdata"
export LC_ALL=C
# Under VALGRIND=1 every tool runs in memcheck and a memory error fails it.
if [ -n "${VALGRIND-}" ]; then
	for t in "$ZH_TOP"/bin/*; do
		n=$(basename "$t")
		eval "$n() { valgrind -q --error-exitcode=99 --leak-check=full \"$t\" \"\$@\"; }"
	done
fi
