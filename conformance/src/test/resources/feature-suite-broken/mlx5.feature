# a file that is not Gherkin


| a | b |
