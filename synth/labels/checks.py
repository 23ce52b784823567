"""The final checks every label passes before it is written: the contract, and the reference actions
scoring 1.0 under the label's own accept rule."""
from synth.core.errors import Reject
from synth.labels import reward, spec


def check_contract(label: dict) -> None:
    """Reject a label that breaks the contract (synth.labels.spec.validate)."""
    if spec.validate(label):
        raise Reject("label.invalid")


def check_reference(label: dict) -> float:
    """Reject a label whose reference actions do not score 1.0; returns that reward."""
    value = reward.score(label, label["actions"])
    if value != 1.0:
        raise Reject("label.reference_not_accepted")
    return value
