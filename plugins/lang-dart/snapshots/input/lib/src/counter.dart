import 'dart:async';
import 'package:meta/meta.dart';
import 'storage.dart' as storage show Store;

/// Counts events and persists the total.
abstract class Counter {
  int get value;
  void increment();
}

class PersistentCounter extends Counter with Loggable implements Disposable {
  PersistentCounter(this._store);

  PersistentCounter.memory() : this(storage.Store.memory());

  final storage.Store _store;
  int _value = 0;

  @override
  int get value => _value;

  @override
  void increment() {
    _value++;
    _store.write('count', _value);
    log('now $_value');
  }

  Future<void> reset() async {
    await _store.delete('count');
    _value = 0;
  }

  static PersistentCounter fromJson(Map<String, dynamic> json) => PersistentCounter.memory();
}

mixin Loggable {
  void log(String message) => print('[counter] $message');
}

enum Mode { up, down }

extension CounterX on Counter {
  void bump(int times) {
    for (var i = 0; i < times; i++) {
      increment();
    }
  }
}

int twice(int x) => x * 2;
