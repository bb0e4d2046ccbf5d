package dev.numaspread.conformance;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

import static io.cucumber.junit.platform.engine.Constants.GLUE_PROPERTY_NAME;
import static io.cucumber.junit.platform.engine.Constants.PLUGIN_PROPERTY_NAME;

/** Runs every feature under features/ (packaged as numaspread/features) against the glue in steps. */
@Suite
@IncludeEngines("cucumber")
@SelectClasspathResource("numaspread/features")
@ConfigurationParameter(key = GLUE_PROPERTY_NAME, value = "dev.numaspread.conformance.steps")
@ConfigurationParameter(key = PLUGIN_PROPERTY_NAME, value = "summary")
public class RunCucumberTest {
}
