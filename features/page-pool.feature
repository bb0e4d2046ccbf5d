Feature: Page pool
  A receive queue's page pool hands out pages and takes them back. A driver that tracks its NAPI's
  node (mlx5e) makes the pool follow the node of the CPU its NAPI polls on. The pools below have an
  alloc cache of 4 pages, refills of 2 and a ptr_ring of 4 unless a scenario says otherwise. In an
  action, #k is the k-th page the pool served in the scenario; the page allocator numbers pages from
  0, and a page is written id:node, with ! after a pfmemalloc page, and - for none.
  (spec/page-pool.md; seed 001 "net/mlx5e: Rx, Update page pool numa node when changed")

  @PP-1
  Rule: PP-1 After a poll the pool's node is numa_mem_id() of the poll's CPU

    Example: seed 001, the queue's IRQ moves from the near node to the far one
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "alloc", "recycle #1", "poll 6", "alloc"
      Then the pool is on node 1
      And page #2 is on node 1

    Example: a driver that does not track its NAPI's node keeps the pool's node
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0, of a driver that does not track its NAPI's node
      When the driver does "poll 6"
      Then the pool is on node 0

  @PP-2
  Rule: PP-2 A poll on the pool's own node changes nothing

    Example: the IRQ moves to another CPU of the same node
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "alloc", "recycle #1", "poll 3"
      Then the poll left the alloc cache as it was

  @PP-3
  Rule: PP-3 An update flushes the alloc cache

    Example: the alloc cache goes back to the page allocator, the ptr_ring stays
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "alloc", "alloc", "recycle #1", "free #2", "poll 6"
      Then the pages of the alloc cache before the poll are back with the page allocator
      And the alloc cache is empty
      And page #2 is in the ptr_ring

    Example: the driver's own update flushes even to the same node
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "alloc", "recycle #1", "update-nid 0"
      Then the alloc cache is empty
      And page #1 is back with the page allocator

  @PP-4
  Rule: PP-4 A refill never puts a page of another node into the alloc cache

    Example: pages of the old node wait in the ptr_ring when the pool moves
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "alloc", "alloc", "poll 6", "alloc", "free #3", "free #1", "free #2", "alloc", "alloc", "alloc"
      Then no page of node 0 was in the alloc cache after the poll
      And every page served after the poll is on node 1

  @PP-5
  Rule: PP-5 A refill stops at the first page of another node

    Example: the first page of the old node is waived, the next one waits in the ptr_ring
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does:
        | action | the pool                                                                      |
        | alloc  | served page 1 (node 0) from the page allocator                                |
        | alloc  | served page 0 (node 0) from the alloc cache                                   |
        | free 1 | put page 1 (node 0) in the ptr_ring                                           |
        | free 0 | put page 0 (node 0) in the ptr_ring                                           |
        | poll 6 | updated the node from 0 to 1                                                  |
        | alloc  | served page 3 (node 1) from the page allocator; released page 1 (node 0)      |
      Then the pool's pages are:
        | alloc cache | ptr_ring | in use | page allocator |
        | 2:1         | 0:0      | 3:1    | 1:0            |

  @PP-6
  Rule: PP-6 The ptr_ring is read only when the alloc cache is empty

    Example: the alloc cache is served while the ptr_ring holds a page
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "alloc", "alloc", "recycle #1", "free #2", "alloc"
      Then page #3 was served from the alloc cache
      And page #2 is in the ptr_ring

  @PP-7
  Rule: PP-7 No page is lost

    Example: a full alloc cache and a full ptr_ring send the page back to the page allocator
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0, an alloc cache of 1, refills of 1 and a ptr_ring of 1
      When the driver does "alloc", "alloc", "alloc", "recycle #1", "recycle #2", "recycle #3"
      Then every page is in exactly one place
      And page #3 is back with the page allocator

  @PP-8
  Rule: PP-8 A NUMA_NO_NODE pool recycles

    Example: a pool created without a node keeps a recycled page
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool with NUMA_NO_NODE and its NAPI on cpu 6, of a driver that does not track its NAPI's node
      When the driver does "alloc", "recycle #1"
      Then page #1 is kept by the pool
      And the pool is on node -1

  @PP-9
  Rule: PP-9 pfmemalloc pages and shared pages go back to the page allocator

    Example: a page from the page allocator's reserves
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "alloc reserve", "recycle #1"
      Then page #1 is back with the page allocator

    Example: a page someone else still holds
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "alloc", "free #1 shared"
      Then page #1 is back with the page allocator

  @PP-10
  Rule: PP-10 Recycling does not look at the page's node

    Example: a page of the old node recycled after the move is served again
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does:
        | action    | the pool                                                   |
        | alloc     | served page 1 (node 0) from the page allocator             |
        | poll 6    | updated the node from 0 to 1; released page 0 (node 0)     |
        | recycle 1 | put page 1 (node 0) in the alloc cache                     |
        | alloc     | served page 1 (node 0) from the alloc cache                |

  @PP-11
  Rule: PP-11 numa_mem_id() of a CPU on a memory-less node depends on the architecture

    Example: without CONFIG_HAVE_MEMORYLESS_NODES the pool takes the memory-less node and waives its own pages
      Given the machine "patho-memless-node" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does:
        | action | the pool                                                                      |
        | poll 4 | updated the node from 0 to 1                                                  |
        | alloc  | served page 1 (node 0) from the page allocator                                |
        | free 1 | put page 1 (node 0) in the ptr_ring                                           |
        | alloc  | served page 0 (node 0) from the alloc cache                                   |
        | alloc  | served page 3 (node 0) from the page allocator; released page 1 (node 0)      |

    Example: with CONFIG_HAVE_MEMORYLESS_NODES the pool stays on the nearest node with memory
      Given the machine "patho-memless-node" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0, on an architecture with CONFIG_HAVE_MEMORYLESS_NODES
      When the driver does:
        | action | the pool                                       |
        | poll 4 | node 0 unchanged                               |
        | alloc  | served page 1 (node 0) from the page allocator |
        | free 1 | put page 1 (node 0) in the ptr_ring            |
        | alloc  | served page 0 (node 0) from the alloc cache    |
        | alloc  | served page 1 (node 0) from the ptr_ring       |

  @PP-12
  Rule: PP-12 New pages come from the pool's node

    Example: after a move the page allocator serves the new node
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "poll 6", "alloc"
      Then page #1 is on node 1

    Example: the driver's own update moves new pages to its node, wherever the NAPI runs
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does "update-nid 1", "alloc"
      Then page #1 is on node 1

    Example: a NUMA_NO_NODE pool takes new pages from its NAPI's node
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool with NUMA_NO_NODE and its NAPI on cpu 6, of a driver that does not track its NAPI's node
      When the driver does "alloc"
      Then page #1 is on node 1

  @PP-13
  Rule: PP-13 Each action leaves the pool as the kernel would

    Example: seed 001, step by step
      Given the machine "xeon-e5-2603v4-2s" running Linux 6.12
      And a page pool on node 0 with its NAPI on cpu 0
      When the driver does:
        | action    | the pool                                                                 |
        | alloc     | served page 1 (node 0) from the page allocator                           |
        | recycle 1 | put page 1 (node 0) in the alloc cache                                   |
        | poll 6    | updated the node from 0 to 1; released page 0 (node 0), page 1 (node 0)  |
        | alloc     | served page 3 (node 1) from the page allocator                           |
      Then the pool's pages are:
        | alloc cache | ptr_ring | in use | page allocator |
        | 2:1         | -        | 3:1    | 0:0 1:0        |

    Example: from 5.13 the slow path takes a bulk of pages
      Given the machine "xeon-e5-2603v4-2s" running Linux 5.13
      And a page pool on node 1 with its NAPI on cpu 6
      When the driver does:
        | action | the pool                                       |
        | alloc  | served page 1 (node 1) from the page allocator |
      Then the pool's pages are:
        | alloc cache | in use |
        | 0:1         | 1:1    |

    Example: before 5.13 it takes one page
      Given the machine "xeon-e5-2603v4-2s" running Linux 5.12
      And a page pool on node 1 with its NAPI on cpu 6
      When the driver does:
        | action | the pool                                       |
        | alloc  | served page 0 (node 1) from the page allocator |
      Then the pool's pages are:
        | alloc cache | in use |
        | -           | 0:1    |
