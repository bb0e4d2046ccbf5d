// What numaspread's build checks after running this project three times (invoker.properties): the
// JUnit route names, passes, skips and fails as README "Certify inside your own build" says. A third
// party needs neither this file nor invoker.properties.

def problems = []
def check = { boolean ok, String what -> if (!ok) problems << what }

def log = new File(basedir, 'build.log').text
// The invoker appends the three runs to one log; each starts by scanning for projects.
def runs = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\.$/).drop(1)
check(runs.size() == 3, "build.log: found ${runs.size()} runs; expected 3")
def props = new Properties()
new File(basedir, 'invoker.properties').withInputStream { props.load(it) }

// Run 1, mvn verify: every claimed rule of AcmeSpread passes under its own name; rules of routines it
// does not claim are skipped with the reason; nothing else passes.
def report = new File(basedir, 'target/surefire-reports/TEST-com.acme.spread.AcmeSpreadTest.xml')
check(report.isFile(), "${report}: missing; expected the report of AcmeSpreadTest")
if (report.isFile()) {
    def doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report)
    def cases = doc.getElementsByTagName('testcase')
    def outcome = [:], skippedBecause = [:]
    for (int i = 0; i < cases.length; i++) {
        def tc = cases.item(i)
        def name = tc.getAttribute('name')
        def kinds = ['failure', 'error', 'skipped'].findAll { tc.getElementsByTagName(it).length > 0 }
        outcome[name] = kinds ? kinds[0] : 'passed'
        if (kinds == ['skipped']) skippedBecause[name] = tc.getElementsByTagName('skipped').item(0).textContent
    }
    def passed = outcome.findAll { it.value == 'passed' }.keySet() as List
    check(outcome['LS-3 Local CPUs come first [6.1]'] == 'passed',
            "run 1: found ${outcome.keySet().take(5)}...; expected a passed test 'LS-3 Local CPUs come first [6.1]'")
    check(passed.size() >= 7 && passed.every { it ==~ /LS-\d+ .+ \[6\.1\]/ || it == 'numaspread certificate' },
            "run 1: passed ${passed}; expected the LS rules of 6.1 and the certificate, nothing else")
    def grp = outcome.keySet().find { it.startsWith('GRP-1 ') }
    def why = grp == null ? '' : skippedBecause.getOrDefault(grp, '')
    check(why.contains('NOT-CLAIMED GRP-1 ') && why.contains('routine group-cpus not claimed'),
            "run 1: GRP-1 is ${grp == null ? 'missing' : outcome[grp] + ' ' + why}; expected skipped as NOT-CLAIMED")
    check(skippedBecause.size() > 40, "run 1: ${skippedBecause.size()} skipped; expected every rule of an unclaimed routine skipped")
}
check(runs.size() > 0 && runs[0].contains('BUILD SUCCESS'), 'run 1: expected BUILD SUCCESS')

// Run 2, the slip: LS-3 fails with the certificate's text, the shrunk machine and the replay line.
if (runs.size() > 1) {
    def r = runs[1]
    check(r.contains('NodesVisitedByIdCertification.LS-3 Local CPUs come first [6.1] FAIL LS-3 Local CPUs come first'
            + ' (MUST; kernel 6.1; implementation "acme-spread 1.0")'), 'run 2: expected LS-3 Local CPUs come first [6.1] to FAIL')
    check(r.contains('hint      are nodes visited by distance from node'), 'run 2: expected the hint of LS-3')
    check(r.contains('shrunk machine (paste into fixtures/topologies/):') && r.contains('node distances:'),
            'run 2: expected the shrunk machine as .topo')
    check(r.contains('BUILD FAILURE'), 'run 2: expected BUILD FAILURE')
    // The replay line it printed for LS-3 is run 3's command line, word for word, from this folder.
    def replay = (r =~ /(?m)^  replay    cd (\S+) && mvn (test -Dtest=\S+ -Dnumaspread\.rule=LS-3 .*)$/)
    check(replay.find(), 'run 2: expected a replay line for LS-3')
    if (replay.find(0)) {
        check(new File(replay.group(1)).canonicalPath == basedir.canonicalPath,
                "run 2: the replay goes to ${replay.group(1)}; expected ${basedir}")
        def run3 = props.getProperty('invoker.goals.3').replaceFirst(/^-ntp /, '')
        check(replay.group(2) == run3, "run 2 printed 'mvn ${replay.group(2)}'; run 3 ran 'mvn ${run3}': expected the same")
    }
}

// Run 3, the replay: LS-3 alone is judged, and fails again.
if (runs.size() > 2) {
    def r = runs[2]
    check(r.contains('numaspread certificate of "acme-spread 1.0": 1 FAIL; level reached: none; exit 1'),
            'run 3: expected a certificate of LS-3 alone, failed')
    check(r.contains('NodesVisitedByIdCertification.LS-3 Local CPUs come first [6.1] FAIL LS-3'), 'run 3: expected LS-3 to FAIL again')
    check(r.contains('Tests run: 2, Failures: 1, Errors: 0, Skipped: 0'), 'run 3: expected 2 tests (LS-3, the certificate), 1 failure')
}

problems.each { println "verify.groovy: ${it}" }
return problems.isEmpty()
