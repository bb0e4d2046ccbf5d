package dev.numaspread.conformance.spi;

import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.List;

/**
 * The reference model seen through the SPI: the oracle, and the implementation the features run
 * against by default. It claims every routine it models for every release it models.
 */
public final class ReferenceModel implements Implementation {

    @Override
    public String name() {
        return "numaspread reference model";
    }

    @Override
    public List<Claim> claims() {
        List<Claim> claims = new ArrayList<>();
        // Each family adds its routines and releases here.
        return claims;
    }

    static List<KernelRelease> releases(String... texts) {
        List<KernelRelease> out = new ArrayList<>();
        for (String t : texts) out.add(KernelRelease.parse(t));
        return out;
    }
}
