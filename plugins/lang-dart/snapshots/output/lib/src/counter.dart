import 'dart:async';
//     ^^^^^^^^^^^^ reference imports dart:async
import 'package:meta/meta.dart';
//     ^^^^^^^^^^^^^^^^^^^^^^^^ reference imports package:meta/meta.dart
import 'storage.dart' as storage show Store;
//     ^^^^^^^^^^^^^^ reference imports storage.dart

/// Counts events and persists the total.
abstract class Counter {
// ^^^^^^^^^^^^^^^^^^^^^^^^ definition class Counter [6:0-9:1]
  int get value;
//^^^^^^^^^^^^^ definition method Counter.value
  void increment();
//^^^^^^^^^^^^^^^^ definition method Counter.increment
}

class PersistentCounter extends Counter with Loggable implements Disposable {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class PersistentCounter [11:0-35:1]
//                              ^^^^^^^ reference inherits Counter (from PersistentCounter)
//                                           ^^^^^^^^ reference inherits Loggable (from PersistentCounter)
//                                                               ^^^^^^^^^^ reference implements Disposable (from PersistentCounter)
  PersistentCounter(this._store);
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constructor PersistentCounter.PersistentCounter

  PersistentCounter.memory() : this(storage.Store.memory());
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constructor PersistentCounter.memory
//                                                ^^^^^^ reference calls memory (from PersistentCounter.memory)

  final storage.Store _store;
  int _value = 0;

  @override
  int get value => _value;
//^^^^^^^^^^^^^^^^^^^^^^^^ definition method PersistentCounter.value

  @override
  void increment() {
//^^^^^^^^^^^^^^^^^^ definition method PersistentCounter.increment (to 27:3)
    _value++;
    _store.write('count', _value);
//         ^^^^^ reference calls _store.write (from PersistentCounter.increment)
    log('now $_value');
//  ^^^ reference calls log (from PersistentCounter.increment)
  }

  Future<void> reset() async {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method PersistentCounter.reset (to 32:3)
    await _store.delete('count');
//               ^^^^^^ reference calls _store.delete (from PersistentCounter.reset)
    _value = 0;
  }

  static PersistentCounter fromJson(Map<String, dynamic> json) => PersistentCounter.memory();
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method PersistentCounter.fromJson
//                                                                                  ^^^^^^ reference calls PersistentCounter.memory (from PersistentCounter.fromJson)
}

mixin Loggable {
// ^^^^^^^^^^^^^^^^ definition class Loggable [37:0-39:1]
  void log(String message) => print('[counter] $message');
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Loggable.log
//                            ^^^^^ reference calls print (from Loggable.log)
}

enum Mode { up, down }
// ^^^^^^^^^^^^^^^^^^^^^^ definition enum Mode [41:0-41:22]

extension CounterX on Counter {
  void bump(int times) {
//^^^^^^^^^^^^^^^^^^^^^^ definition method Counter.bump (to 48:3)
    for (var i = 0; i < times; i++) {
      increment();
//    ^^^^^^^^^ reference calls increment (from Counter.bump)
    }
  }
}

int twice(int x) => x * 2;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function twice [51:0-51:26]
// ----- travsr snapshot: lib/src/counter.dart (dart, phase A, status ok) -----
// node file <file> (counter.dart)
// skeleton Counter.bump: "void bump(int times) {"
// skeleton Counter.increment: "void increment();"
// skeleton Counter.value: "int get value;"
// skeleton Counter: "/// Counts events and persists the total.\nabstract class Counter"
// skeleton Loggable.log: "void log(String message) => print('[counter] $message');"
// skeleton Loggable: "mixin Loggable {"
// skeleton Mode: "enum Mode"
// skeleton PersistentCounter.PersistentCounter: "PersistentCounter(this._store);"
// skeleton PersistentCounter.fromJson: "static PersistentCounter fromJson(Map<String, dynamic> json) => PersistentCounter.memory();"
// skeleton PersistentCounter.increment: "void increment() {"
// skeleton PersistentCounter.memory: "PersistentCounter.memory() : this(storage.Store.memory());"
// skeleton PersistentCounter.reset: "Future<void> reset() async {"
// skeleton PersistentCounter.value: "int get value => _value;"
// skeleton PersistentCounter: "class PersistentCounter extends Counter with Loggable implements Disposable"
// skeleton twice: "int twice(int x) => x * 2;"
// edge contains <file> -> Counter (confidence 1, phase-a)
// edge contains <file> -> Counter.bump (confidence 1, phase-a)
// edge contains <file> -> Loggable (confidence 1, phase-a)
// edge contains <file> -> Mode (confidence 1, phase-a)
// edge contains <file> -> PersistentCounter (confidence 1, phase-a)
// edge contains <file> -> twice (confidence 1, phase-a)
// edge contains Counter -> Counter.increment (confidence 1, phase-a)
// edge contains Counter -> Counter.value (confidence 1, phase-a)
// edge contains Loggable -> Loggable.log (confidence 1, phase-a)
// edge contains PersistentCounter -> PersistentCounter.PersistentCounter (confidence 1, phase-a)
// edge contains PersistentCounter -> PersistentCounter.fromJson (confidence 1, phase-a)
// edge contains PersistentCounter -> PersistentCounter.increment (confidence 1, phase-a)
// edge contains PersistentCounter -> PersistentCounter.memory (confidence 1, phase-a)
// edge contains PersistentCounter -> PersistentCounter.reset (confidence 1, phase-a)
// edge contains PersistentCounter -> PersistentCounter.value (confidence 1, phase-a)
