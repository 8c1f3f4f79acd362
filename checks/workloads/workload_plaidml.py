"""macml verify workload for PlaidML-Keras: the spec'd mnist_cnn in Keras 2.2.4 on a PlaidML device.

Runs inside the TARGET interpreter (Python 3.6+): stdlib + numpy + keras 2.2.4 +
plaidml(-keras) 0.7.0, no macml imports. The order and the events are
_workload_common.run_mnist's. The device is the one PlaidML's settings select (see
`plaidml-setup`, or macml's install/plaidml.py configure), or --device ID. The CPU is PlaidML's
own llvm_cpu.0, reached in the same process through K.clear_session().
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _model_spec import ADADELTA, BATCH, DROPOUT  # noqa: E402
from _workload_common import main, numpy_batch, numpy_weights  # noqa: E402

CPU_DEVICE = "llvm_cpu.0"


def device_kind(device_id):
    return "cpu" if device_id.startswith("llvm_cpu") or "cpu" in device_id else "gpu"


def device_backend(device_id):
    if device_kind(device_id) == "cpu":
        return "cpu"
    return "metal" if device_id.startswith("metal_") else "opencl"


def select_device(device_id):
    """Point PlaidML at one device before keras opens one (experimental config: all ids)."""
    os.environ["PLAIDML_DEVICE_IDS"] = device_id
    os.environ["PLAIDML_EXPERIMENTAL"] = "1"


def configured_device(plaidml):
    """The (id, description) PlaidML will open; its own error says what is wrong."""
    dev = plaidml.devices(plaidml.Context(), limit=1)[0]
    return dev.id.decode(), dev.description.decode()


def build_model(keras, weights):
    """The spec's model in Keras 2.2.4; the softmax is a layer of its own so its input is the logits."""
    from keras.layers import Activation, Conv2D, Dense, Dropout, Flatten, MaxPooling2D
    model = keras.models.Sequential([
        Conv2D(32, (3, 3), activation="relu", input_shape=(28, 28, 1)),
        Conv2D(64, (3, 3), activation="relu"), MaxPooling2D((2, 2)), Dropout(DROPOUT[0]), Flatten(),
        Dense(128, activation="relu"), Dropout(DROPOUT[1]), Dense(10), Activation("softmax"),
    ])
    model.set_weights([w.copy() for w in weights])
    optimizer = keras.optimizers.Adadelta(lr=ADADELTA["learning_rate"], rho=ADADELTA["rho"],
                                          epsilon=ADADELTA["epsilon"])
    model.compile(loss="categorical_crossentropy", optimizer=optimizer)
    return model


class Trainer:
    """Keras 2.2.4's train_on_batch copies the batch in and the loss out every step; there is no
    way around that host sync in this API, so it is part of what is measured."""

    def __init__(self, np, keras, device_id, x, y, weights):
        self.np, self.device_id = np, device_id
        self.x, self.onehot = x, np.eye(10, dtype=np.float32)[y]
        self.model = build_model(keras, numpy_weights(np, weights))
        self.rng = np.random.RandomState(0)
        self.mode = "keras-train_on_batch"

    def step(self, idx):
        return self.model.train_on_batch(self.x[idx], self.onehot[idx])

    def batches(self, count):
        n = self.x.shape[0]
        per_epoch, done = n // BATCH, 0
        while done < count:
            perm = self.rng.permutation(n)
            for b in range(min(per_epoch, count - done)):
                yield perm[b * BATCH:(b + 1) * BATCH]
            done += per_epoch

    def placement(self):
        return device_kind(self.device_id), "PlaidML device %s (batches copied in every step)" % self.device_id


class PlaidMLBackend:
    name = "plaidml"
    # Measured on llvm_cpu.0, --synthetic parity batch: conv2's bias gradient 1.7 off against
    # first-max routing, 7.7e-6 against every-max: PlaidML sends a tie's gradient to all maxima.
    pool_ties = "every"

    def describe(self, args):
        os.environ["KERAS_BACKEND"] = "plaidml.keras.backend"
        wanted = (args.device or "auto").lower()
        if wanted == "cpu":
            select_device(CPU_DEVICE)
        elif wanted not in ("auto", "gpu"):
            select_device(args.device)
        import numpy as np
        import plaidml
        plaidml.quiet()
        device_id, description = configured_device(plaidml)
        import keras
        self.np, self.keras, self.current = np, keras, device_id
        kind = device_kind(device_id)
        self.devices = {"cpu": CPU_DEVICE, kind: device_id}
        detail = "" if kind != "cpu" else "PlaidML is set to %s (its CPU device); run plaidml set-up to pick a GPU" % device_id
        return {"framework": "plaidml", "version": str(plaidml.__version__), "device": kind,
                "backend": device_backend(device_id), "name": description, "device_id": device_id,
                "keras_version": keras.__version__, "detail": detail}

    def use(self, device):
        """PlaidML opens one device per session: switching is a new session on the other id."""
        device_id = self.devices[device]
        if device_id != self.current:
            select_device(device_id)
            self.keras.backend.clear_session()
            self.current = device_id
        return device_id

    def load(self, pixels, labels, n):
        np = self.np
        x = np.frombuffer(pixels, dtype=np.uint8).reshape(n, 28, 28, 1).astype(np.float32) / 255.0
        return x, np.frombuffer(labels, dtype=np.uint8).astype(np.int64)

    def trainer(self, device, x, y, weights):
        return Trainer(self.np, self.keras, self.use(device), x, y, weights)

    def sync(self, device, value):
        pass  # every Keras 2.2.4 call returns host arrays: it has already waited

    def loss_value(self, loss):
        return float(loss)

    def matmul(self, device, n):
        np, K = self.np, self.keras.backend
        self.use(device)
        rng = np.random.RandomState(0)
        a = K.variable(rng.randn(n, n).astype(np.float32))
        b = K.variable(rng.randn(n, n).astype(np.float32))
        run = K.function([], [K.sum(K.dot(a, b))])
        return lambda: run([])

    def precisions(self, device):
        backend = device_backend(self.devices[device])
        return ["fp32"] if backend == "cpu" else ["fp32-" + backend]

    def reference_ops(self):
        from _reference import numpy_ops
        return numpy_ops()  # Keras 2.2.4 depends on NumPy

    def step_outputs(self, device, weights, batch, precision):
        np, K = self.np, self.keras.backend
        self.use(device)
        x, y = numpy_batch(np, batch)
        model = build_model(self.keras, numpy_weights(np, weights))
        target = K.placeholder(shape=(None, 10))
        loss = K.mean(K.categorical_crossentropy(target, model.output))
        grads = K.gradients(loss, model.trainable_weights)
        run = K.function([model.input, target, K.learning_phase()], [model.layers[-1].input, loss] + list(grads))
        out = run([x, np.eye(10, dtype=np.float32)[y], 0])
        return out[0], float(out[1]), list(out[2:])

    def evaluate(self, trainer, x, y):
        predicted = trainer.model.predict(x, batch_size=1000).argmax(axis=1)
        return int((predicted == y).sum())


if __name__ == "__main__":
    main(PlaidMLBackend())
