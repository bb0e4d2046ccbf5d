package dev.numaspread.model.input;

import java.util.Locale;
import java.util.Optional;

/**
 * A value of a closed set (an enum) known by its id in files, the protocol, features and
 * reports: {@code local-spread}, {@code rx-tx}, {@code stale-count}. The id is the constant's name
 * in lower case with {@code -} for {@code _} ({@code RX_TX} is {@code rx-tx}), so the two cannot
 * drift apart; a constant whose id is written otherwise overrides {@link #id()}.
 */
public interface HasId {

    /** The constant's name ({@link Enum#name()}). */
    String name();

    /** The id: {@code rx-tx} for {@code RX_TX}. */
    default String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The constant of {@code type} whose id is {@code id}; empty when none is. */
    static <E extends Enum<E> & HasId> Optional<E> byId(Class<E> type, String id) {
        for (E e : type.getEnumConstants()) if (e.id().equals(id)) return Optional.of(e);
        return Optional.empty();
    }
}
