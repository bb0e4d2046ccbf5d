package dev.numaspread.conformance.steps;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

/** Runs features/group-cpus.feature and features/blk-mq.feature against the implementation under test. */
@Suite
@IncludeEngines("cucumber")
@SelectClasspathResource("numaspread/features/group-cpus.feature")
@SelectClasspathResource("numaspread/features/blk-mq.feature")
@ConfigurationParameter(key = "cucumber.glue", value = "dev.numaspread.conformance.steps")
class GroupingFeaturesTest {
}
