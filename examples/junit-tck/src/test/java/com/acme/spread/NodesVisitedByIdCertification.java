package com.acme.spread;

import dev.numaspread.conformance.junit.Certification;
import dev.numaspread.conformance.spi.Implementation;

/**
 * The slip certified: {@code mvn test -Dtest=NodesVisitedByIdCertification} fails LS-3 Local CPUs come
 * first [6.1] with the shrunk machine and the line that replays it. Not a *Test, so mvn verify leaves it out.
 */
class NodesVisitedByIdCertification extends Certification {
    @Override
    protected Implementation implementation() {
        return new NodesVisitedById();
    }
}
