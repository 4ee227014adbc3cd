package com.example.billing;

import java.math.BigDecimal;
import java.util.*;
import java.util.function.Function;
import static java.util.Objects.requireNonNull;

/**
 * Creates and sends invoices.
 */
public class InvoiceService extends AbstractService implements Notifier, AutoCloseable {
    private final Repository<Invoice> repository;
    private final Map<String, BigDecimal> rates = new HashMap<>();

    public InvoiceService(Repository<Invoice> repository) {
        super("billing");
        this.repository = requireNonNull(repository);
    }

    /** Totals the lines and stores the invoice. */
    public Invoice create(String customer, List<Line> lines) {
        BigDecimal total = lines.stream().map(Line::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
        Invoice invoice = new Invoice(customer, total);
        repository.save(invoice);
        notify(customer, String.format("invoice %s", invoice.id()));
        return invoice;
    }

    @Override
    public void close() {
        repository.flush();
    }

    public record Line(String sku, BigDecimal amount) {}

    enum Status { DRAFT, SENT, PAID }

    static class Batch implements Runnable {
        @Override
        public void run() {
            Function<String, String> upper = s -> s.toUpperCase();
            System.out.println(upper.apply("batch"));
        }
    }
}

interface Notifier {
    default void notify(String who, String what) {
        log(who + ": " + what);
    }

    void log(String message);
}

@interface Audited {
    String value();
}
