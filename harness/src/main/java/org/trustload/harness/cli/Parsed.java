package org.trustload.harness.cli;

import com.unboundid.util.args.Argument;
import com.unboundid.util.args.ArgumentException;
import com.unboundid.util.args.ArgumentParser;
import com.unboundid.util.args.ArgumentValueValidator;
import com.unboundid.util.args.BooleanArgument;
import com.unboundid.util.args.DurationArgument;
import com.unboundid.util.args.IntegerArgument;
import com.unboundid.util.args.StringArgument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.trustload.common.ClientException;
import org.trustload.harness.HarnessException;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.run.RunSpec;

/** One command's arguments, parsed by its declared {@link ArgumentParser}: typed values by option name. */
public final class Parsed {

    private final ArgumentParser parser;
    private final List<String> jmeterArgs;

    private Parsed(ArgumentParser parser, List<String> jmeterArgs) {
        this.parser = parser;
        this.jmeterArgs = jmeterArgs;
    }

    /**
     * Parses {@code args} with {@code parser}; a bad argument is a usage error (exit 1) naming {@code ./trustload help
     * COMMAND}.
     */
    static Parsed parse(ArgumentParser parser, List<String> args) throws HarnessException {
        try {
            parser.parse(args.toArray(String[]::new));
        } catch (ArgumentException e) {
            // the SDK's message quotes the value as given: a huge one is clipped
            throw HarnessException.usage(ClientException.bounded(e.getMessage(), ClientException.MAX_MESSAGE)
                    + " (./trustload help " + parser.getCommandName() + ")");
        }
        return new Parsed(parser, jmeterArgs(args));
    }

    /**
     * The {@code -Jname=value} and {@code -q FILE} arguments in the order given (a later one wins in JMeter), each
     * {@code -q} file as an absolute path.
     */
    private static List<String> jmeterArgs(List<String> args) throws HarnessException {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-J") && i + 1 < args.size()) {
                out.add("-J" + args.get(++i));
            } else if (a.startsWith("-J")) {
                out.add(a);
            } else if (a.equals("-q") && i + 1 < args.size()) {
                out.addAll(List.of("-q", propertiesFile(args.get(++i)).toString()));
            } else if (a.startsWith("-q")) {
                out.addAll(List.of("-q", propertiesFile(a.substring(2)).toString()));
            }
        }
        return out;
    }

    /**
     * The file of {@code -q NAME}, read once here: a regular, readable properties file (not a device such as
     * /dev/zero, which would be read for ever, nor a file Java cannot read as properties).
     */
    private static Path propertiesFile(String name) throws HarnessException {
        String shown = ClientException.bounded(name, ClientException.MAX_MESSAGE);
        Path f;
        try {
            f = Path.of(name).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw HarnessException.usage("-q needs a readable properties file, not '" + shown + "' (" + e.getReason()
                    + ")");
        }
        if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
            throw HarnessException.usage("-q needs a readable properties file, not '" + shown + "'");
        }
        try {
            RunSpec.load(f);
        } catch (IOException e) {
            throw HarnessException.usage("-q " + shown + ": " + e.getMessage());
        }
        return f;
    }

    /** The user's JMeter arguments ({@code -J}, {@code -q}) in order. */
    public List<String> jmeterArgs() {
        return jmeterArgs;
    }

    public boolean flag(String name) {
        return parser.getNamedArgument(name).isPresent();
    }

    /** Whether the option was given. */
    public boolean given(String name) {
        return parser.getNamedArgument(name).isPresent();
    }

    /** A string option's value, or its default (null when none). */
    public String string(String name) {
        return ((StringArgument) parser.getNamedArgument(name)).getValue();
    }

    public Integer integer(String name) {
        return ((IntegerArgument) parser.getNamedArgument(name)).getValue();
    }

    /** A number option's value (declared with {@link #number}), or {@code def} when not given. */
    public double number(String name, double def) {
        String v = string(name);
        return v == null ? def : Double.parseDouble(v.strip().replace("%", ""));
    }

    /** A duration option's value in ms, or {@code def} when not given and without default. */
    public long millis(String name, long def) {
        Long v = ((DurationArgument) parser.getNamedArgument(name)).getValue(TimeUnit.MILLISECONDS);
        return v == null ? def : v;
    }

    /** A string option's value read by {@code reader} (its validator already accepted it), or null when not given. */
    public <T> T value(String name, Function<String, T> reader) {
        String v = string(name);
        return v == null ? null : reader.apply(v);
    }

    /** {@code --engines}, 0 when not given. */
    public int engines() {
        return given("engines") ? integer("engines") : 0;
    }

    /** The hosts of {@code --remote}, none when not given. */
    public List<String> remote() throws HarnessException {
        return given("remote") ? Engines.parseHosts(string("remote")) : List.of();
    }

    /** The address of {@code --controller} without brackets, or null. */
    public String controller() {
        return value("controller", v -> v.strip().replace("[", "").replace("]", ""));
    }

    /** The arguments after the options. */
    public List<String> trailing() {
        return parser.getTrailingArguments();
    }

    // ---- declarations' building blocks ----

    /** A switch. */
    static BooleanArgument flag(ArgumentParser p, String name, String description) throws ArgumentException {
        BooleanArgument a = new BooleanArgument(null, name, description);
        p.addArgument(a);
        return a;
    }

    /** A string; {@code check} (may be null) says why a value is refused, or returns null. */
    static StringArgument string(ArgumentParser p, String name, String placeholder, String description, Function<String,
            String> check)
            throws ArgumentException {
        return string(p, name, placeholder, description, check, false);
    }

    /** {@link #string(ArgumentParser, String, String, String, Function)}, required or not. */
    static StringArgument string(ArgumentParser p, String name, String placeholder, String description, Function<String,
            String> check,
                                 boolean required) throws ArgumentException {
        StringArgument a = new StringArgument(null, name, required, 1, placeholder, description);
        if (check != null) {
            a.addValueValidator(validator(check));
        }
        p.addArgument(a);
        return a;
    }

    /** A whole number from {@code lower} to {@code upper}. */
    static IntegerArgument integer(ArgumentParser p, String name, String placeholder, String description, int lower,
            int upper,
                                   Integer def) throws ArgumentException {
        IntegerArgument a = new IntegerArgument(null, name, false, 1, placeholder, description, lower, upper, def);
        p.addArgument(a);
        return a;
    }

    /** A number (a trailing {@code %} allowed) above {@code above} and at most {@code atMost}. */
    static StringArgument number(ArgumentParser p, String name, String placeholder, String description, double above,
                                 double atMost) throws ArgumentException {
        return string(p, name, placeholder, description, v -> {
            try {
                double d = Double.parseDouble(v.strip().replace("%", ""));
                return d > above && d <= atMost ? null : "--" + name + " takes a number above " + trim(above)
                        + (atMost < Double.MAX_VALUE ? " and at most " + trim(atMost) : "") + ", not '" + v + "'";
            } catch (NumberFormatException e) {
                return "--" + name + " takes a number, not '" + v + "'";
            }
        });
    }

    /** A duration such as {@code 30s}, {@code 5m} or {@code 500ms}, at least {@code minMs}. */
    static DurationArgument duration(ArgumentParser p, String name, String description, long defMs, long minMs)
            throws ArgumentException {
        DurationArgument a = new DurationArgument(null, name, false, "DURATION", description, defMs,
                TimeUnit.MILLISECONDS,
                minMs, TimeUnit.MILLISECONDS, null, null);
        p.addArgument(a);
        return a;
    }

    /** The JMeter arguments every command that runs a plan takes: {@code -J name=value} and {@code -q FILE}. */
    static void jmeter(ArgumentParser p) throws ArgumentException {
        StringArgument j = new StringArgument('J', null, false, 0, "name=value", "a JMeter property (JMeter writes"
                + " every -J value into jmeter.log: passwords belong in a -q file)");
        j.addValueValidator(validator(v -> v.indexOf('=') > 0 ? null : "-J takes name=value, not '" + v + "'"));
        p.addArgument(j);
        p.addArgument(new com.unboundid.util.args.FileArgument('q', null, false, 0, "FILE", "JMeter properties from"
                + " FILE: use it for passwords (JMeter does not log them; the summary masks -q"
                + " values)", true, true, true, false));
    }

    private static ArgumentValueValidator validator(Function<String, String> check) {
        return new ArgumentValueValidator() {
            @Override
            public void validateArgumentValue(Argument argument, String value) throws ArgumentException {
                String problem = check.apply(value);
                if (problem != null) {
                    throw new ArgumentException(problem);
                }
            }
        };
    }

    /** The long options {@code p} declares, {@code --name} each (for the docs test and the synopsis). */
    static Map<String, Argument> options(ArgumentParser p) {
        Map<String, Argument> out = new LinkedHashMap<>();
        for (Argument a : p.getNamedArguments()) {
            out.put(a.getIdentifierString(), a);
        }
        return out;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
