/**
 * face-api's SSD MobileNet v1 face detector, with the same weights and the same answers, in fewer
 * kernels. face-api runs every depthwise layer as a convolution, a batch normalisation and a clip
 * to [0, 6], and every pointwise layer as a convolution, an added offset and a clip: three or four
 * passes over each activation map. The detector took two thirds of a photo check's CPU, and those
 * extra passes a fifth of the detector's (bench/results/photo-check-measure.txt).
 *
 * Here the batch normalisation is folded into the depthwise filters and a bias once, at load
 * (w' = w * scale / sqrt(variance + epsilon), b' = offset - mean * scale / sqrt(variance +
 * epsilon)), and each layer is one fused kernel (convolution, bias and ReLU6 in one pass, as the
 * WASM backend's XNNPACK runs them). Box decoding, non-maximum suppression and the mapping back to
 * the photo stay face-api's own (`locateFaces`), so only the arithmetic's rounding differs:
 * face-detector.test.ts checks boxes and scores against face-api's on the fixtures.
 */
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import type * as TfjsCore from '@tensorflow/tfjs';

type Tf = typeof TfjsCore;
type Tensor1D = TfjsCore.Tensor1D;
type Tensor2D = TfjsCore.Tensor2D;
type Tensor4D = TfjsCore.Tensor4D;

/** face-api.node-wasm.js re-exports the whole of @tensorflow/tfjs as `tf`; its typings do not. */
const tf = faceapi.tf as unknown as Tf;

/** The batch normalisation's epsilon in face-api's MobileNet v1 (the trained graph's, as float32). */
const BATCH_NORM_EPSILON = 0.0010000000474974513;

/** The layers at which MobileNet v1's depthwise convolutions halve the map. */
const STRIDE_2_LAYERS = new Set([2, 4, 6, 12]);

interface FusedConv {
  filter: Tensor4D;
  bias: Tensor1D;
}

interface FoldedParams {
  conv0: FusedConv;
  /** MobileNet v1's 13 depthwise + pointwise pairs. */
  pairs: { depthwise: FusedConv; pointwise: FusedConv }[];
  /** The SSD head's 8 extra pointwise layers. */
  extra: FusedConv[];
  /** Per feature map: the box encoding and the class convolutions (no activation). */
  predictors: { box: FusedConv; classes: FusedConv }[];
  /** The anchors, [anchors, 4] as (ymin, xmin, ymax, xmax). */
  anchors: Tensor2D;
}

/** face-api's parameter layout for this network (its typings keep it private). */
interface PointwiseParams {
  filters: Tensor4D;
  batch_norm_offset: Tensor1D;
}
interface DepthwiseParams {
  filters: Tensor4D;
  batch_norm_scale: Tensor1D;
  batch_norm_offset: Tensor1D;
  batch_norm_mean: Tensor1D;
  batch_norm_variance: Tensor1D;
}
interface ConvParams {
  filters: Tensor4D;
  bias: Tensor1D;
}
interface SsdParams {
  mobilenetv1: Record<
    string,
    PointwiseParams | { depthwise_conv: DepthwiseParams; pointwise_conv: PointwiseParams }
  >;
  prediction_layer: Record<
    string,
    PointwiseParams | { box_encoding_predictor: ConvParams; class_predictor: ConvParams }
  >;
  output_layer: { extra_dim: TfjsCore.Tensor3D };
}

function pointwise(params: PointwiseParams): FusedConv {
  return { filter: params.filters, bias: params.batch_norm_offset };
}

function foldDepthwise(params: DepthwiseParams): FusedConv {
  const channels = params.batch_norm_scale.shape[0];
  const [filter, bias] = tf.tidy(() => {
    const factor = tf.div(
      params.batch_norm_scale,
      tf.sqrt(tf.add(params.batch_norm_variance, BATCH_NORM_EPSILON)),
    );
    return [
      // Depthwise filters are [height, width, channels, 1]: scale each channel's filter.
      tf.mul(params.filters, tf.reshape(factor, [1, 1, channels, 1])),
      tf.sub(params.batch_norm_offset, tf.mul(params.batch_norm_mean, factor)),
    ];
  }) as [Tensor4D, Tensor1D];
  return { filter, bias };
}

/** The network's layers, folded; new tensors that live as long as the detector. */
function fold(params: SsdParams): FoldedParams {
  const net = params.mobilenetv1;
  const head = params.prediction_layer;
  return {
    conv0: pointwise(net.conv_0 as PointwiseParams),
    pairs: Array.from({ length: 13 }, (_, i) => {
      const pair = net[`conv_${i + 1}`] as {
        depthwise_conv: DepthwiseParams;
        pointwise_conv: PointwiseParams;
      };
      return {
        depthwise: foldDepthwise(pair.depthwise_conv),
        pointwise: pointwise(pair.pointwise_conv),
      };
    }),
    extra: Array.from({ length: 8 }, (_, i) => pointwise(head[`conv_${i}`] as PointwiseParams)),
    predictors: Array.from({ length: 6 }, (_, i) => {
      const predictor = head[`box_predictor_${i}`] as {
        box_encoding_predictor: ConvParams;
        class_predictor: ConvParams;
      };
      return {
        box: {
          filter: predictor.box_encoding_predictor.filters,
          bias: predictor.box_encoding_predictor.bias,
        },
        classes: {
          filter: predictor.class_predictor.filters,
          bias: predictor.class_predictor.bias,
        },
      };
    }),
    anchors: tf.reshape(params.output_layer.extra_dim, [-1, 4]),
  };
}

function conv(
  x: Tensor4D,
  layer: FusedConv,
  strides: 1 | 2,
  activation: 'relu6' | 'linear',
): Tensor4D {
  return tf.fused.conv2d({
    x,
    filter: layer.filter,
    strides,
    pad: 'same',
    bias: layer.bias,
    activation,
  });
}

function depthwise(x: Tensor4D, layer: FusedConv, strides: 1 | 2): Tensor4D {
  return tf.fused.depthwiseConv2d({
    x,
    filter: layer.filter,
    strides,
    pad: 'same',
    bias: layer.bias,
    activation: 'relu6',
  });
}

/** SSD's box decoding (centre offsets over 10, log sizes over 5), as face-api's output layer. */
function decodeBoxes(anchors: Tensor2D, encodings: TfjsCore.Tensor): Tensor2D {
  const [aYMin, aXMin, aYMax, aXMax] = tf.unstack(tf.transpose(anchors));
  const [dy, dx, dh, dw] = tf.unstack(tf.transpose(encodings));
  const height = tf.sub(aYMax!, aYMin!);
  const width = tf.sub(aXMax!, aXMin!);
  const centreY = tf.add(tf.mul(tf.div(dy!, 10), height), tf.add(aYMin!, tf.div(height, 2)));
  const centreX = tf.add(tf.mul(tf.div(dx!, 10), width), tf.add(aXMin!, tf.div(width, 2)));
  const halfHeight = tf.div(tf.mul(tf.exp(tf.div(dh!, 5)), height), 2);
  const halfWidth = tf.div(tf.mul(tf.exp(tf.div(dw!, 5)), width), 2);
  return tf.transpose(
    tf.stack([
      tf.sub(centreY, halfHeight),
      tf.sub(centreX, halfWidth),
      tf.add(centreY, halfHeight),
      tf.add(centreX, halfWidth),
    ]),
  ) as Tensor2D;
}

/**
 * face-api's SsdMobilenetv1 with its forward pass fused. Load it with `loadFromDisk` as any face-api
 * network; `locateFaces(input, options)` answers as face-api's `ssdMobilenetv1(input, options)`.
 */
export class FusedSsdMobilenetv1 extends faceapi.SsdMobilenetv1 {
  private folded: FoldedParams | undefined;

  override async loadFromDisk(filePath: string | undefined): Promise<void> {
    await super.loadFromDisk(filePath);
    this.folded = fold(this.params as unknown as SsdParams);
  }

  override forwardInput(input: faceapi.NetInput): {
    boxes: faceapi.tf.Tensor2D[];
    scores: faceapi.tf.Tensor1D[];
  } {
    const p = this.folded;
    if (!p) throw new Error('FusedSsdMobilenetv1: load the model before inference');
    const [boxes, scores] = tf.tidy(() => {
      const pixels = tf.cast(
        input.toBatchTensor(512, false) as unknown as TfjsCore.Tensor4D,
        'float32',
      );
      const normalised = tf.sub(tf.div(pixels, 127.5), 1) as Tensor4D;
      let out = conv(normalised, p.conv0, 2, 'relu6');
      let conv11 = out;
      p.pairs.forEach((pair, i) => {
        const layer = i + 1;
        out = depthwise(out, pair.depthwise, STRIDE_2_LAYERS.has(layer) ? 2 : 1);
        out = conv(out, pair.pointwise, 1, 'relu6');
        if (layer === 11) conv11 = out;
      });
      // The SSD head: four more scales, each a 1x1 layer then a strided one.
      const maps: Tensor4D[] = [conv11, out];
      let extra = out;
      p.extra.forEach((layer, i) => {
        extra = conv(extra, layer, i % 2 === 1 ? 2 : 1, 'relu6');
        if (i % 2 === 1) maps.push(extra);
      });
      const batch = normalised.shape[0];
      const predict = (which: 'box' | 'classes', depth: number) =>
        tf.concat(
          maps.map((map, i) =>
            tf.reshape(conv(map, p.predictors[i]![which], 1, 'linear'), [batch, -1, depth]),
          ),
          1,
        );
      const anchorCount = p.anchors.shape[0];
      const decoded = decodeBoxes(
        tf.tile(p.anchors, [batch, 1]),
        tf.reshape(predict('box', 4), [-1, 4]),
      );
      // Class 0 is the background; class 1 is a face.
      const faceScores = tf.sigmoid(tf.slice(predict('classes', 3), [0, 0, 1], [-1, -1, 1]));
      return [
        tf.reshape(decoded, [batch, anchorCount, 4]),
        tf.reshape(faceScores, [batch, anchorCount]),
      ];
    }) as [TfjsCore.Tensor3D, Tensor2D];
    try {
      return {
        boxes: tf.unstack(boxes) as unknown as faceapi.tf.Tensor2D[],
        scores: tf.unstack(scores) as unknown as faceapi.tf.Tensor1D[],
      };
    } finally {
      boxes.dispose();
      scores.dispose();
    }
  }
}
