# SPDX-License-Identifier: GPL-2.0
#
# For users (README.md):
#   make deb             the Debian packages, mmfree-dkms and mmfreectl,
#                        lintian-checked, in build/deb/ (installs only the
#                        packaging tools; Debian 12 or 13)
#   make install         the module through DKMS for the running kernel,
#                        mmfreectl, its man page and the /etc examples
#                        (root; PREFIX=/usr/local)
#   make                 build mmfree.ko for the running kernel
#   make KVER=...        ... or for another installed kernel (or KDIR=...)
#
# The lab (docs/testing.md), on a Debian 12 host that it sets up:
#   make demo            the main job, about five minutes: a VM boots the
#                        newest stock kernel of the matrix and frees 1 GiB
#                        with stock, sync and async, side by side
#   make check           set up this machine and run every test in VMs
#   make check-installed the same tests on this machine, against the
#                        module installed for its kernel (root; they load
#                        it, fill memory, change sysctls: a disposable
#                        machine only, see tests/installed.sh)
#   make bench           the full benchmark, stock vs mmfree, in VMs
#                        (about an hour a kernel)
#   make lint            W=1, sparse and checkpatch on every kernel
#   make dkms-install    the module alone, through DKMS
#   make install-tool    mmfreectl, its man page and the /etc examples
#                        (PREFIX=/usr/local, DESTDIR= for staging)
#   make mmfreectl       build the control tool, build/mmfreectl
#   make mmfreectl-test  build and run its unit tests (no VM)
#   make mmfreectl-host-test
#                        run it on fake sysfs trees (no VM, no root:
#                        tests/host/mmfreectl-outputs.sh)
#   make debug-kernel    build the KASAN/lockdep/kmemleak/failslab 6.1
#                        kernel for the VM (hours on 2 cores; cached)
#   make stress          stress run in a VM: KERNEL=ID|debug (6.1),
#                        STRESS_MINUTES=N (2); report in build/stress/
#
# check, bench and demo take KERNEL=ID[,ID...] (scripts/kernels.sh: 6.1,
# 6.12, trixie, trixie-cloud, sid; or a release), check and
# check-installed TEST=name[,...] to narrow the run; bench runs 6.1 and
# 6.12 unless told, and takes BENCH_ARGS: "--quick" for smaller runs (about
# 15 minutes a kernel; pagefree alone: 7 quick, 25 full), "--percpu-only",
# "--pagefree-only" or "--peers-only" for one part, "--charge-only" for
# charged against uncharged workers (2 boots a kernel), "--cost-only" for
# where a worker's time per page goes, "--a N --b N" (percpu
# sizes), "--pf-reps N" and "--pf-sizes MB,MB,..." (pagefree),
# "--peers-reps N", "--peers-sizes MB,..." and "--peers-mb MB" (peers:
# process_mrelease, THP, redis-server, the curve; see bench/bench.sh);
# and MMFREE_BUILD=make to skip DKMS for a faster loop.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# Not Kbuild's "clean": with M= it deletes every *.ko and *.o under this
# directory, the kernels cached in build/ included.  Only the module's own
# objects, here and in module/.
clean:
	find . module -maxdepth 1 -type f \( -name '*.o' -o -name '*.ko' \
		-o -name '*.mod' -o -name '*.mod.c' -o -name '.*.cmd' \
		-o -name Module.symvers -o -name modules.order \) -delete
	rm -rf build/mmfreectl $(MMFREECTL_OBJDIR)

vm_args = $(if $(KERNEL),--kernel $(KERNEL)) $(if $(TEST),--test $(TEST))

check:
	scripts/setup.sh
	tests/run.sh $(vm_args)

check-installed:
	tests/installed.sh $(if $(TEST),--test $(TEST))

bench:
	scripts/setup.sh
	bench/bench.sh $(if $(KERNEL),--kernel $(KERNEL)) $(BENCH_ARGS)

# The newest kernel of the matrix: sid's.
demo:
	scripts/setup.sh
	tests/run.sh --demo --kernel $(if $(KERNEL),$(KERNEL),sid)

lint:
	scripts/setup.sh
	scripts/lint.sh

dkms-install:
	scripts/dkms.sh install $(KVER)

deb:
	scripts/setup.sh --packaging
	scripts/deb.sh

# mmfreectl: userspace, linked with libkmod, from mmfreectl/.  The
# knob and stat tables come from include/mmfree/, as for the module (only
# table.c defines them); the version from dkms.conf.  The objects go to
# build/obj/mmfreectl/ whatever MMFREECTL names: vm.sh copies the folder
# of tests/run.sh's mmfreectl, build/guest-bin/, into the guests.
MMFREECTL ?= build/mmfreectl
MMFREE_VERSION = $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
MMFREECTL_CFLAGS = -Wall -Wextra -Werror -O2 -Iinclude \
	-DMMFREE_VERSION='"$(MMFREE_VERSION)"' $(shell pkg-config --cflags libkmod)
MMFREECTL_LIBS = $(shell pkg-config --libs libkmod)
MMFREECTL_SRC = mmfreectl
MMFREECTL_OBJDIR = build/obj/mmfreectl
MMFREECTL_OBJS = $(patsubst $(MMFREECTL_SRC)/%.c,$(MMFREECTL_OBJDIR)/%.o, \
	$(wildcard $(MMFREECTL_SRC)/*.c))
MMFREECTL_DEPS = $(MMFREECTL_SRC)/mmfreectl.h include/mmfree/knobs.h \
	include/mmfree/stats.h dkms.conf

mmfreectl: $(MMFREECTL)

$(MMFREECTL_OBJDIR)/%.o: $(MMFREECTL_SRC)/%.c $(MMFREECTL_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(MMFREECTL_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(MMFREECTL): $(MMFREECTL_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(MMFREECTL_CFLAGS) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(MMFREECTL_LIBS)

# Its unit tests, on the host: what does not touch the system (the
# commands, main.c and libkmod left out), with a test program of its own
# that prints KTAP and exits non-zero on a failure.
MMFREECTL_TEST = $(MMFREECTL_OBJDIR)/test/mmfreectl-test
MMFREECTL_TEST_OBJS = $(filter-out $(MMFREECTL_OBJDIR)/main.o \
	$(MMFREECTL_OBJDIR)/kmod.o $(MMFREECTL_OBJDIR)/cmd_%.o, \
	$(MMFREECTL_OBJS)) \
	$(patsubst $(MMFREECTL_SRC)/test/%.c,$(MMFREECTL_OBJDIR)/test/%.o, \
	$(wildcard $(MMFREECTL_SRC)/test/*.c))

$(MMFREECTL_OBJDIR)/test/%.o: $(MMFREECTL_SRC)/test/%.c \
		$(wildcard $(MMFREECTL_SRC)/test/*.h) $(MMFREECTL_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(MMFREECTL_CFLAGS) -I$(MMFREECTL_SRC) $(CPPFLAGS) $(CFLAGS) \
		-c -o $@ $<

$(MMFREECTL_TEST): $(MMFREECTL_TEST_OBJS)
	$(CC) $(MMFREECTL_CFLAGS) $(CFLAGS) -o $@ $^ $(LDFLAGS)

mmfreectl-test: $(MMFREECTL_TEST)
	$(MMFREECTL_TEST)

mmfreectl-host-test: $(MMFREECTL)
	MMFREECTL=$(MMFREECTL) tests/host/mmfreectl-outputs.sh

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc

# Everything a user of a checkout needs: the module through DKMS (for
# the running kernel, and by DKMS's hooks for kernels installed later),
# the tool, its man page and the /etc examples.
install: dkms-install install-tool

# The /etc examples are installed only where no such file exists yet:
# they are the administrator's to edit.
install-tool: $(MMFREECTL)
	install -D -m 0755 $(MMFREECTL) $(DESTDIR)$(SBINDIR)/mmfreectl
	install -D -m 0644 $(MMFREECTL_SRC)/mmfreectl.8 $(DESTDIR)$(MANDIR)/man8/mmfreectl.8
	@for f in modprobe.d/mmfree.conf modules-load.d/mmfree.conf; do \
		dst=$(DESTDIR)$(SYSCONFDIR)/$$f; \
		if [ -e "$$dst" ]; then \
			echo "kept existing $$dst"; \
		else \
			echo "install -D -m 0644 etc/$$f $$dst"; \
			install -D -m 0644 etc/$$f "$$dst" || exit 1; \
		fi; \
	done

.PHONY: all modules clean check check-installed bench demo lint \
	dkms-install deb mmfreectl mmfreectl-test mmfreectl-host-test install

# The debug kernel and the stress run (scripts/debug-kernel.sh,
# scripts/stress.sh, tests/guest/stress.sh).
debug-kernel:
	scripts/setup.sh
	scripts/debug-kernel.sh

stress:
	scripts/setup.sh
	scripts/stress.sh $(if $(KERNEL),--kernel $(KERNEL)) \
		$(if $(STRESS_MINUTES),--minutes $(STRESS_MINUTES))

.PHONY: debug-kernel stress
