// SPDX-License-Identifier: GPL-2.0
/* The trace events, defined once: module/trace.h says what each records. */
#define CREATE_TRACE_POINTS
#include "trace.h"
