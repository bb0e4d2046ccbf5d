Feature: CPU hotplug during IRQ setup
  A CPU may go offline or come online while a driver sizes and spreads its IRQs. The kit runs the
  driver's setup once for every point at which an event can arrive (every service call) and
  grades each run: the plan before the event, the plan after it, or something that mixes the two.
  (spec/hotplug.md; seed 004 "net: mana: Assigning IRQ affinity on HT cores", seed 003)

  @HP-1
  Rule: HP-1 Setup under the lock is atomic with respect to hotplug

    Example: a CPU goes offline between sizing and assignment, with the lock held
      Given the machine "mana-2node-2c-smt2" running Linux 6.9
      When MANA sets up its vectors on node 0 while cpu 7 goes offline at any point
      Then every interleaving gives the plan before or after the event

    Example: every event and every pair of events on a small machine
      Given the machine:
        """topo
        topology 2node-2core-4cpu
        source   hand-made: the smallest machine with two nodes and SMT
        smt      2 adjacent
        available: 2 nodes (0-1)
        node 0 cpus: 0 1
        node 0 size: 4096 MB
        node 1 cpus: 2 3
        node 1 size: 4096 MB
        node distances:
        node   0   1
          0:  10  20
          1:  20  10
        """
      And Linux 6.12
      When MANA sets up its vectors on node 0 under every hotplug event and pair of events
      Then the outcomes seen are:
        | outcome          | grade      |
        | same-plan        | ACCEPTABLE |
        | plan-after-event | ACCEPTABLE |

  @HP-2
  Rule: HP-2 No IRQ is bound to a CPU that is offline when its affinity is set

    Example: irq_setup under its caller's lock
      Given the machine "mana-2node-2c-smt2" running Linux 6.12
      When the driver sets up 8 IRQs on node 0 under cpus_read_lock() while cpu 1 goes offline at any point
      Then every interleaving gives the plan before or after the event

    Example: the code before the lock binds a queue to a CPU that went offline
      Given the machine "mana-2node-2c-smt2" running Linux 6.8
      When MANA sets up its vectors on node 0 while cpu 5 goes offline at any point
      Then an interleaving binds IRQ 5 to offline cpu 5

    Example: the code before the lock sizes the vectors from a stale count
      Given the machine "mana-2node-2c-smt2" running Linux 6.8
      When MANA sets up its vectors on node 0 while cpu 5 goes offline at any point
      Then an interleaving gives "stale-count"

  @HP-3
  Rule: HP-3 The hotplug lock is released on every path, errors included

    Example: the PCI core grants a single vector
      Given the machine "mana-2node-2c-smt2" running Linux 6.9
      When MANA sets up its vectors on node 0 with 1 vector granted while cpu 3 goes offline at any point
      Then the hotplug lock is released on every interleaving

  @HP-4
  Rule: HP-4 6.17+ sizes the vectors before taking the lock

    Example: a CPU goes offline right after the sizing
      Given the machine "mana-2node-2c-smt2" running Linux 6.17
      When MANA sets up its vectors on node 0 while cpu 7 goes offline at any point
      Then the outcomes seen are:
        | outcome          | grade       |
        | same-plan        | ACCEPTABLE  |
        | plan-after-event | ACCEPTABLE  |
        | stale-count      | INTERESTING |

  @HP-5
  Rule: HP-5 Classic cpumask_local_spread without the caller's lock can reach BUG()

    Example: MANA on 6.2 while a CPU goes offline
      Given the machine "mana-2node-2c-smt2" running Linux 6.2
      When MANA sets up its vectors on node 0 while cpu 5 goes offline at any point
      Then an interleaving gives "BUG"
