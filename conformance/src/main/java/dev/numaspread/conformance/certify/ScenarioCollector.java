package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.spi.Claim;
import io.cucumber.plugin.ConcurrentEventListener;
import io.cucumber.plugin.event.EventPublisher;
import io.cucumber.plugin.event.Status;
import io.cucumber.plugin.event.TestCaseFinished;
import io.cucumber.plugin.event.TestCaseStarted;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Cucumber plugin that records, per scenario, its tags, where it is, how it ended and which
 * claims it exercised through the guarded implementation. Scenarios run one after another
 * (the certifier runs Cucumber single-threaded), so the guard's call log between a scenario's
 * start and finish belongs to that scenario.
 */
final class ScenarioCollector implements ConcurrentEventListener {

    /** One finished scenario. {@code error} is empty when it passed. */
    record Scenario(String name, String location, List<String> tags, Status status, Optional<Throwable> error,
                    List<Claim> exercised) {}

    private final GuardedImplementation guard;
    private final List<Scenario> scenarios = new ArrayList<>();

    ScenarioCollector(GuardedImplementation guard) {
        this.guard = guard;
    }

    @Override
    public void setEventPublisher(EventPublisher publisher) {
        publisher.registerHandlerFor(TestCaseStarted.class, e -> guard.drainCalls());
        publisher.registerHandlerFor(TestCaseFinished.class, this::finished);
    }

    private synchronized void finished(TestCaseFinished e) {
        String uri = e.getTestCase().getUri().toString();
        int cut = uri.indexOf("numaspread/");
        String file = cut >= 0 ? uri.substring(cut + "numaspread/".length()) : uri.replaceFirst("^classpath:", "");
        String location = file + ":" + e.getTestCase().getLocation().getLine();
        List<String> tags = e.getTestCase().getTags().stream().map(t -> t.startsWith("@") ? t.substring(1) : t).toList();
        scenarios.add(new Scenario(e.getTestCase().getName(), location, tags, e.getResult().getStatus(),
                Optional.ofNullable(e.getResult().getError()), guard.drainCalls()));
    }

    synchronized List<Scenario> scenarios() {
        return List.copyOf(scenarios);
    }
}
