package com.example.billing;

import java.math.BigDecimal;
//     ^^^^^^^^^^^^^^^^^^^^ reference imports java.math.BigDecimal
import java.util.*;
//     ^^^^^^^^^ reference imports java.util
import java.util.function.Function;
//     ^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports java.util.function.Function
import static java.util.Objects.requireNonNull;
//            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports java.util.Objects.requireNonNull

/**
 * Creates and sends invoices.
 */
public class InvoiceService extends AbstractService implements Notifier, AutoCloseable {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class InvoiceService [11:0-45:1]
//                                  ^^^^^^^^^^^^^^^ reference inherits AbstractService (from InvoiceService)
//                                                             ^^^^^^^^ reference implements Notifier (from InvoiceService)
//                                                                       ^^^^^^^^^^^^^ reference implements AutoCloseable (from InvoiceService)
    private final Repository<Invoice> repository;
    private final Map<String, BigDecimal> rates = new HashMap<>();
//                                                    ^^^^^^^ reference calls HashMap (from InvoiceService)

    public InvoiceService(Repository<Invoice> repository) {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constructor InvoiceService.InvoiceService (to 18:5)
        super("billing");
        this.repository = requireNonNull(repository);
//                        ^^^^^^^^^^^^^^ reference calls requireNonNull (from InvoiceService.InvoiceService)
    }

    /** Totals the lines and stores the invoice. */
    public Invoice create(String customer, List<Line> lines) {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method InvoiceService.create (to 27:5)
        BigDecimal total = lines.stream().map(Line::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
//                               ^^^^^^ reference calls lines.stream (from InvoiceService.create)
//                                        ^^^ reference calls map (from InvoiceService.create)
//                                                  ^^^^^^ reference calls Line.amount (from InvoiceService.create)
//                                                          ^^^^^^ reference calls reduce (from InvoiceService.create)
//                                                                                              ^^^ reference calls BigDecimal.add (from InvoiceService.create)
        Invoice invoice = new Invoice(customer, total);
//                            ^^^^^^^ reference calls Invoice (from InvoiceService.create)
        repository.save(invoice);
//                 ^^^^ reference calls repository.save (from InvoiceService.create)
        notify(customer, String.format("invoice %s", invoice.id()));
//      ^^^^^^ reference calls notify (from InvoiceService.create)
//                              ^^^^^^ reference calls String.format (from InvoiceService.create)
//                                                           ^^ reference calls invoice.id (from InvoiceService.create)
        return invoice;
    }

    @Override
//  ^^^^^^^^^ definition method InvoiceService.close (to 32:5)
    public void close() {
        repository.flush();
//                 ^^^^^ reference calls repository.flush (from InvoiceService.close)
    }

    public record Line(String sku, BigDecimal amount) {}
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class InvoiceService.Line

    enum Status { DRAFT, SENT, PAID }
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition enum InvoiceService.Status

    static class Batch implements Runnable {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class InvoiceService.Batch (to 44:5)
//                                ^^^^^^^^ reference implements Runnable (from InvoiceService.Batch)
        @Override
//      ^^^^^^^^^ definition method InvoiceService.Batch.run (to 43:9)
        public void run() {
            Function<String, String> upper = s -> s.toUpperCase();
//                                                  ^^^^^^^^^^^ reference calls s.toUpperCase (from InvoiceService.Batch.run)
            System.out.println(upper.apply("batch"));
//                     ^^^^^^^ reference calls System.out.println (from InvoiceService.Batch.run)
//                                   ^^^^^ reference calls upper.apply (from InvoiceService.Batch.run)
        }
    }
}

interface Notifier {
// ^^^^^^^^^^^^^^^^^^^^ definition interface Notifier [47:0-53:1]
    default void notify(String who, String what) {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Notifier.notify (to 50:5)
        log(who + ": " + what);
//      ^^^ reference calls log (from Notifier.notify)
    }

    void log(String message);
//  ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Notifier.log
}

@interface Audited {
// ^^^^^^^^^^^^^^^^^^^^ definition interface Audited [55:0-57:1]
    String value();
//  ^^^^^^^^^^^^^^^ definition method Audited.value
}
// ----- travsr snapshot: com/example/billing/InvoiceService.java (java, phase A, status ok) -----
// node file <file> (InvoiceService.java)
// skeleton Audited.value: "String value();"
// skeleton Audited: "@interface Audited"
// skeleton InvoiceService.Batch.run: "@Override\n        public void run()"
// skeleton InvoiceService.Batch: "static class Batch implements Runnable"
// skeleton InvoiceService.InvoiceService: "public InvoiceService(Repository<Invoice> repository)"
// skeleton InvoiceService.Line: "public record Line(String sku, BigDecimal amount)"
// skeleton InvoiceService.Status: "enum Status"
// skeleton InvoiceService.close: "@Override\n    public void close()"
// skeleton InvoiceService.create: "/** Totals the lines and stores the invoice. */\npublic Invoice create(String customer, List<Line> lines)"
// skeleton InvoiceService: "/**\n * Creates and sends invoices.\n */\npublic class InvoiceService extends AbstractService implements Notifier, AutoCloseable"
// skeleton Notifier.log: "void log(String message);"
// skeleton Notifier.notify: "default void notify(String who, String what)"
// skeleton Notifier: "interface Notifier"
// edge contains <file> -> Audited (confidence 1, phase-a)
// edge contains <file> -> InvoiceService (confidence 1, phase-a)
// edge contains <file> -> Notifier (confidence 1, phase-a)
// edge contains Audited -> Audited.value (confidence 1, phase-a)
// edge contains InvoiceService -> InvoiceService.Batch (confidence 1, phase-a)
// edge contains InvoiceService -> InvoiceService.InvoiceService (confidence 1, phase-a)
// edge contains InvoiceService -> InvoiceService.Line (confidence 1, phase-a)
// edge contains InvoiceService -> InvoiceService.Status (confidence 1, phase-a)
// edge contains InvoiceService -> InvoiceService.close (confidence 1, phase-a)
// edge contains InvoiceService -> InvoiceService.create (confidence 1, phase-a)
// edge contains InvoiceService.Batch -> InvoiceService.Batch.run (confidence 1, phase-a)
// edge contains Notifier -> Notifier.log (confidence 1, phase-a)
// edge contains Notifier -> Notifier.notify (confidence 1, phase-a)
