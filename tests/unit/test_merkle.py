"""The transparency log's Merkle tree against RFC 6962's test vectors (those of
transparency-dev/merkle, testonly/constants.go and proof/verify_test.go) and
property tests of inclusion and consistency at random sizes (issue 41 item 4)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import merkle

LEAVES = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                      "606162636465666768696a6b6c6d6e6f")]
ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
H = {
    "96a2": "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
    "5f08": "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
    "6b47": "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    "bc1a": "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    "ca85": "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
    "d37e": "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "fac5": "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "6e34": "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "0ebc": "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
}
# (leaf index from 0, tree size, proof) — the vectors number leaves from 1
INCLUSION = [(0, 1, []), (0, 8, ["96a2", "5f08", "6b47"]), (5, 8, ["bc1a", "ca85", "d37e"]),
             (2, 3, ["fac5"]), (1, 5, ["6e34", "5f08", "bc1a"])]
CONSISTENCY = [(1, 1, []), (1, 8, ["96a2", "5f08", "6b47"]), (6, 8, ["0ebc", "ca85", "d37e"]),
               (2, 5, ["5f08", "bc1a"])]


def tree_of(leaves: list[bytes]) -> merkle.Tree:
    nodes = merkle.rebuild(leaves)
    return merkle.Tree(lambda wanted: [nodes[n] for n in wanted])


def test_roots_are_rfc_6962s_for_every_size_of_the_reference_tree() -> None:
    for size in range(len(LEAVES) + 1):
        assert merkle.root_of(LEAVES[:size]).hex() == ROOTS[size]


def test_inclusion_proofs_are_the_reference_ones_and_verify() -> None:
    tree = tree_of(LEAVES)
    for index, size, names in INCLUSION:
        proof = tree.inclusion(index, size)
        assert [p.hex() for p in proof] == [H[n] for n in names]
        root = bytes.fromhex(ROOTS[size])
        assert merkle.verify_inclusion(merkle.leaf_hash(LEAVES[index]), index, size, proof, root)


def test_consistency_proofs_are_the_reference_ones_and_verify() -> None:
    tree = tree_of(LEAVES)
    for first, second, names in CONSISTENCY:
        proof = tree.consistency(first, second)
        assert [p.hex() for p in proof] == [H[n] for n in names]
        assert merkle.verify_consistency(first, second, bytes.fromhex(ROOTS[first]),
                                         bytes.fromhex(ROOTS[second]), proof)


def test_the_split_is_the_largest_power_of_two_below_never_the_midpoint() -> None:
    assert [merkle.split(n) for n in (2, 3, 4, 5, 6, 7, 8, 9, 1000)] == [1, 2, 2, 4, 4, 4, 4, 8, 512]


def test_a_proof_for_a_leaf_outside_the_tree_is_refused() -> None:
    tree = tree_of(LEAVES)
    assert not merkle.verify_inclusion(merkle.leaf_hash(b""), 8, 8, [], bytes.fromhex(ROOTS[8]))
    try:
        tree.inclusion(8, 8)
    except ValueError:
        return
    raise AssertionError("a leaf past the tree got a proof")


leaves_st = st.lists(st.binary(max_size=8), min_size=1, max_size=70)


@settings(max_examples=60, deadline=None)
@given(leaves=leaves_st, data=st.data())
def test_every_inclusion_proof_verifies_and_a_wrong_leaf_index_or_root_does_not(leaves: list[bytes],
                                                                                 data: st.DataObject) -> None:
    size = data.draw(st.integers(1, len(leaves)))
    index = data.draw(st.integers(0, size - 1))
    tree = tree_of(leaves)
    root = merkle.root_of(leaves[:size])
    assert tree.root(size) == root
    proof = tree.inclusion(index, size)
    leaf = merkle.leaf_hash(leaves[index])
    assert merkle.verify_inclusion(leaf, index, size, proof, root)
    assert not merkle.verify_inclusion(merkle.leaf_hash(leaves[index] + b"x"), index, size, proof, root)
    assert not merkle.verify_inclusion(leaf, index, size, proof, merkle.leaf_hash(root))
    if size > 1:
        other = (index + 1) % size
        assert not merkle.verify_inclusion(leaf, other, size, proof, root) or leaves[other] == leaves[index]
        assert not merkle.verify_inclusion(leaf, index, size, proof[:-1], root)


@settings(max_examples=60, deadline=None)
@given(leaves=leaves_st, data=st.data())
def test_every_consistency_proof_verifies_and_a_rewritten_past_does_not(leaves: list[bytes],
                                                                        data: st.DataObject) -> None:
    second = data.draw(st.integers(1, len(leaves)))
    first = data.draw(st.integers(1, second))
    tree = tree_of(leaves)
    proof = tree.consistency(first, second)
    first_root, second_root = merkle.root_of(leaves[:first]), merkle.root_of(leaves[:second])
    assert merkle.verify_consistency(first, second, first_root, second_root, proof)
    forked = list(leaves[:second])
    forked[data.draw(st.integers(0, first - 1))] += b"!"  # a leaf the first tree held, rewritten
    forked_root = merkle.root_of(forked)
    assert not merkle.verify_consistency(first, second, first_root, forked_root,
                                         tree_of(forked).consistency(first, second))
    assert not merkle.verify_consistency(first, second, first_root, forked_root, proof)
