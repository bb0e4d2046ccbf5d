/* SPDX-License-Identifier: GPL-2.0 */
/* Stands in for the kernel's <linux/threads.h>: see kshim.h. */
#include <kshim.h>
