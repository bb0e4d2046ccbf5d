package com.acme.spread;

import dev.numaspread.conformance.junit.Certification;
import dev.numaspread.conformance.spi.Implementation;

/** One test per rule of local spread for 6.1: LS-3 Local CPUs come first [6.1], ... */
class AcmeSpreadTest extends Certification {
    @Override
    protected Implementation implementation() {
        return new AcmeSpread();
    }
}
