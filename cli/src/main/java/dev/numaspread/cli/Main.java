package dev.numaspread.cli;

/** Entry point of the {@code numaspread} command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("numaspread: the command line is being built");
    }
}
