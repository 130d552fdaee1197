"""The einsum equations of multi-head attention, written out once per input rank.

After projection a query has the shape ``[batch, <other axes>, heads, key_dim]``: one
letter per axis. The key has the same letters, except along the attention axes, which get
letters of their own (the key's positions are not the query's). Every other axis (the
batch, the heads, axes attention does not run over) is shared, so einsum keeps it.

Examples
--------
>>> projection_equation(free=2, contracted=1, produced=2)  # [B, T, dim] -> [B, T, H, D]
'abc,cde->abde'
>>> scores, combine = attention_equations(rank=4, attention_axes=(1,))
>>> scores  # query [B,T,H,D] with key [B,S,H,D] -> scores [B,H,T,S]
'abcd,aecd->acbe'
>>> combine  # scores [B,H,T,S] with value [B,S,H,Dv] -> [B,T,H,Dv]
'acbe,aecd->abcd'
"""

import string

_LETTERS = string.ascii_lowercase


def projection_equation(free, contracted, produced):
    """``input,kernel->output`` for a kernel that replaces the last ``contracted`` axes of
    an input (after ``free`` axes it keeps) by ``produced`` new axes."""
    kept = _LETTERS[:free]
    summed = _LETTERS[free : free + contracted]
    made = _LETTERS[free + contracted : free + contracted + produced]
    return f"{kept}{summed},{summed}{made}->{kept}{made}"


def attention_equations(rank, attention_axes):
    """``(scores equation, combine equation)`` for projected tensors of ``rank`` whose
    positions along ``attention_axes`` (sorted, each between 1 and rank - 3) attend.

    The scores have the shared axes first (batch, heads, ...), then the query's attention
    axes, then the key's; a softmax over the last ``len(attention_axes)`` axes makes each
    query position's weights.
    """
    query = _LETTERS[:rank]
    key = list(query)
    for i, axis in enumerate(attention_axes):
        key[axis] = _LETTERS[rank + i]  # a key position is not a query position
    key = "".join(key)
    shared = [axis for axis in range(rank - 1) if axis not in attention_axes]
    scores = (
        "".join(query[axis] for axis in shared)
        + "".join(query[axis] for axis in attention_axes)
        + "".join(key[axis] for axis in attention_axes)
    )
    # The value has the key's letters: its last axis (value_dim) is the output's last.
    return f"{query},{key}->{scores}", f"{scores},{key}->{query}"
