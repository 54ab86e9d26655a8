package io.loadlab.plot;

import org.knowm.xchart.XYChart;

/** An XY chart that says what it is when printed (JShell shows every value it holds). */
class LoadlabXYChart extends XYChart {

    LoadlabXYChart() {
        super(Look.WIDTH, Look.HEIGHT);
    }

    @Override
    public String toString() {
        return Charts.describe(this);
    }
}
