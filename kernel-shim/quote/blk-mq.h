/* SPDX-License-Identifier: GPL-2.0 */
/* Stands in for the kernel's "blk-mq.h" beside the file that includes it: see kshim.h. */
#include <kshim.h>
