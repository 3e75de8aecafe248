# SPDX-License-Identifier: GPL-2.0
#
#   make                 build mmfree.ko for the running kernel
#   make KVER=...        ... or for another installed kernel (or KDIR=...)
#   make check           set up this machine and run every test in VMs
#   make demo            boot a VM, load mmfree, show its sysfs
#   make lint            W=1, sparse and checkpatch on both kernels
#   make dkms-install    install through DKMS for the running kernel
#
# check and demo take KERNEL=6.1|6.12 and TEST=name to narrow the run,
# and MMFREE_BUILD=make to skip DKMS for a faster loop.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

vm_args = $(if $(KERNEL),--kernel $(KERNEL)) $(if $(TEST),--test $(TEST))

check:
	scripts/setup.sh
	tests/run.sh $(vm_args)

demo:
	scripts/setup.sh
	tests/run.sh --demo $(if $(KERNEL),--kernel $(KERNEL),--kernel 6.12)

lint:
	scripts/setup.sh
	scripts/lint.sh

dkms-install:
	scripts/dkms.sh install $(KVER)

.PHONY: all modules clean check demo lint dkms-install
